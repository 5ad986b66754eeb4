// Builds a Variant, validates it and wraps it in an Arrow array through the installed
// varshred package. Exit status 0 and "consumer ok" on success.
#include <varshred/arrow/variant_array.h>
#include <varshred/builder.h>
#include <varshred/validate.h>

#include <iostream>

int main() {
  varshred::VariantBuilder builder;
  builder.StartObject();
  builder.AddKey("id");
  builder.AppendInt(17);
  builder.AddKey("tags");
  builder.StartArray();
  builder.AppendString("a");
  builder.EndArray();
  std::string metadata, value;
  if (!builder.EndObject().ok() || !builder.Finish(&metadata, &value).ok()) return 1;
  if (auto st = varshred::Validate(metadata, value); !st.ok()) {
    std::cerr << st.ToString() << "\n";
    return 1;
  }
  varshred::VariantArrayBuilder arrays;
  if (!arrays.Append(metadata, value).ok()) return 1;
  auto array = arrays.Finish();
  if (!array.ok() || (*array)->length() != 1) return 1;
  std::cout << "consumer ok: " << (*array)->type()->ToString() << "\n";
  return 0;
}
