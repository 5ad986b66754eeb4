#include "varshred/cast.h"

#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "test_util.h"
#include "varshred/builder.h"
#include "varshred/json.h"

namespace varshred {
namespace {

using namespace std::string_view_literals;

// A source Variant, built directly with VariantBuilder (JSON documents through
// JsonParser) so that this test covers the cast alone.
struct Source {
  std::string label;
  std::function<void(VariantBuilder*)> build;
};

Source Null() {
  return {"null", [](VariantBuilder* b) { b->AppendNull(); }};
}
Source Bool(bool v) {
  return {v ? "true" : "false", [v](VariantBuilder* b) { b->AppendBool(v); }};
}
Source Int(int64_t v) {
  return {std::to_string(v), [v](VariantBuilder* b) { b->AppendInt(v); }};
}
Source Int8(int8_t v) {
  return {"int8 " + std::to_string(v), [v](VariantBuilder* b) { b->AppendInt8(v); }};
}
// Decimal from the digits of its unscaled value.
Source Dec(const char* unscaled, uint8_t scale) {
  return {std::string("decimal ") + unscaled + "e-" + std::to_string(scale),
          [unscaled, scale](VariantBuilder* b) {
            std::string_view s(unscaled);
            const bool neg = s[0] == '-';
            int128_t v = 0;
            for (char c : s.substr(neg ? 1 : 0)) v = v * 10 + (c - '0');
            b->AppendDecimal(Decimal{neg ? -v : v, scale});
          }};
}
Source Double(double v) {
  return {"double " + std::to_string(v), [v](VariantBuilder* b) { b->AppendDouble(v); }};
}
Source Float(float v) {
  return {"float " + std::to_string(v), [v](VariantBuilder* b) { b->AppendFloat(v); }};
}
Source Str(std::string v) {
  return {"string '" + v + "'", [v](VariantBuilder* b) { b->AppendString(v); }};
}
Source Date(int32_t days) {
  return {"date " + std::to_string(days),
          [days](VariantBuilder* b) { b->AppendDate(days); }};
}
Source Ts(int64_t us) {
  return {"timestamp " + std::to_string(us),
          [us](VariantBuilder* b) { b->AppendTimestampMicros(us); }};
}
Source Ntz(int64_t us) {
  return {"timestamp_ntz " + std::to_string(us),
          [us](VariantBuilder* b) { b->AppendTimestampNtzMicros(us); }};
}
Source Binary(const char* hex) {
  return {std::string("binary ") + hex,
          [hex](VariantBuilder* b) { b->AppendBinary(testing::Hex(hex)); }};
}
Source Json(const char* json) {
  return {std::string("json ") + json, [json](VariantBuilder* b) {
            JsonParser parser;
            ASSERT_TRUE(parser.Parse(json, b).ok()) << json;
          }};
}

// A Source's Variant, holding its bytes.
struct Built {
  explicit Built(const Source& source) {
    VariantBuilder b;
    source.build(&b);
    EXPECT_TRUE(b.Finish(&metadata, &value).ok()) << source.label;
  }
  VariantView view() const {
    return VariantView::MakeUnchecked(MetadataView::MakeUnchecked(metadata), value);
  }
  std::string metadata, value;
};

const CastTarget kTargets[] = {
    {CastTargetType::kBoolean},      {CastTargetType::kInt8},
    {CastTargetType::kInt16},        {CastTargetType::kInt32},
    {CastTargetType::kInt64},        {CastTargetType::kFloat},
    {CastTargetType::kDouble},       CastTarget::Decimal(5, 2),
    CastTarget::Decimal(38, 10),     CastTarget::Decimal(10, 0),
    CastTarget::Decimal(2, 2),       {CastTargetType::kString},
    {CastTargetType::kDate},         {CastTargetType::kTimestamp},
    {CastTargetType::kTimestampNtz}, {CastTargetType::kBinary},
};
constexpr size_t kNumTargets = sizeof(kTargets) / sizeof(kTargets[0]);

struct Case {
  Source source;
  // Per target of kTargets: "~" SQL NULL, "!" invalid cast, else the value as text
  // (see ResultText).
  std::string_view expected[kNumTargets];
};

std::string Int128Text(int128_t v) {
  if (v == 0) return "0";
  std::string s;
  const bool neg = v < 0;
  while (v != 0) {
    int d = static_cast<int>(v % 10);
    s.insert(s.begin(), static_cast<char>('0' + (d < 0 ? -d : d)));
    v /= 10;
  }
  return neg ? "-" + s : s;
}

std::string Fmt(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

// Runs the caster's method for its target and renders the outcome as the table does:
// booleans true/false, numbers in decimal (floats widened, %.17g), decimals as the
// unscaled value at the target scale, dates as days, timestamps as microseconds,
// binaries in hex.
std::string ResultText(const VariantCaster& caster, const VariantView& v) {
  CastResult r = CastResult::kInvalid;
  std::string text;
  switch (caster.target().type) {
    case CastTargetType::kBoolean: {
      bool out = false;
      r = caster.CastBoolean(v, &out);
      text = out ? "true" : "false";
      break;
    }
    case CastTargetType::kInt8:
    case CastTargetType::kInt16:
    case CastTargetType::kInt32:
    case CastTargetType::kInt64: {
      int64_t out;
      r = caster.CastInteger(v, &out);
      text = std::to_string(out);
      break;
    }
    case CastTargetType::kFloat: {
      float out;
      r = caster.CastFloat(v, &out);
      text = Fmt(out);
      break;
    }
    case CastTargetType::kDouble: {
      double out;
      r = caster.CastDouble(v, &out);
      text = Fmt(out);
      break;
    }
    case CastTargetType::kDecimal: {
      int128_t out;
      r = caster.CastDecimal(v, &out);
      text = Int128Text(out);
      break;
    }
    case CastTargetType::kString:
      r = caster.CastString(v, &text);
      break;
    case CastTargetType::kDate: {
      int32_t out;
      r = caster.CastDate(v, &out);
      text = std::to_string(out);
      break;
    }
    case CastTargetType::kTimestamp:
    case CastTargetType::kTimestampNtz: {
      int64_t out;
      r = caster.CastTimestamp(v, &out);
      text = std::to_string(out);
      break;
    }
    case CastTargetType::kBinary: {
      std::string_view out;
      r = caster.CastBinary(v, &out);
      if (r == CastResult::kOk) text = testing::ToHex(out);
      text.erase(std::remove(text.begin(), text.end(), ' '), text.end());
      break;
    }
  }
  if (r == CastResult::kNull) return "~";
  if (r == CastResult::kInvalid) return "!";
  return text;
}

// Expectations recorded from Spark 4.3.0 (local session, session time zone UTC):
// try_variant_get(<value>, '$', <type>) for every pair; "!" cells also failed
// variant_get with INVALID_VARIANT_CAST. JSON sources went through parse_json
// (fractions are decimals, exponents doubles); the others through cast(... as variant).
const Case kSparkCases[] = {
    {Null(),
     {"~"sv, "~"sv, "~"sv, "~"sv, "~"sv, "~"sv, "~"sv, "~"sv, "~"sv, "~"sv, "~"sv, "~"sv,
      "~"sv, "~"sv, "~"sv, "~"sv}},
    {Bool(true),
     {"true"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1"sv, "100"sv, "10000000000"sv, "1"sv,
      "!"sv, "true"sv, "!"sv, "!"sv, "!"sv, "!"sv}},
    {Bool(false),
     {"false"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv,
      "false"sv, "!"sv, "!"sv, "!"sv, "!"sv}},
    {Int(0LL),
     {"false"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv,
      "0"sv, "!"sv, "0"sv, "!"sv, "!"sv}},
    {Int(1LL),
     {"true"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1"sv, "100"sv, "10000000000"sv, "1"sv,
      "!"sv, "1"sv, "!"sv, "1000000"sv, "!"sv, "!"sv}},
    {Int(-1LL),
     {"true"sv, "-1"sv, "-1"sv, "-1"sv, "-1"sv, "-1"sv, "-1"sv, "-100"sv,
      "-10000000000"sv, "-1"sv, "!"sv, "-1"sv, "!"sv, "-1000000"sv, "!"sv, "!"sv}},
    {Int(127LL),
     {"true"sv, "127"sv, "127"sv, "127"sv, "127"sv, "127"sv, "127"sv, "12700"sv,
      "1270000000000"sv, "127"sv, "!"sv, "127"sv, "!"sv, "127000000"sv, "!"sv, "!"sv}},
    {Int(128LL),
     {"true"sv, "!"sv, "128"sv, "128"sv, "128"sv, "128"sv, "128"sv, "12800"sv,
      "1280000000000"sv, "128"sv, "!"sv, "128"sv, "!"sv, "128000000"sv, "!"sv, "!"sv}},
    {Int(-129LL),
     {"true"sv, "!"sv, "-129"sv, "-129"sv, "-129"sv, "-129"sv, "-129"sv, "-12900"sv,
      "-1290000000000"sv, "-129"sv, "!"sv, "-129"sv, "!"sv, "-129000000"sv, "!"sv,
      "!"sv}},
    {Int(32767LL),
     {"true"sv, "!"sv, "32767"sv, "32767"sv, "32767"sv, "32767"sv, "32767"sv, "!"sv,
      "327670000000000"sv, "32767"sv, "!"sv, "32767"sv, "!"sv, "32767000000"sv, "!"sv,
      "!"sv}},
    {Int(32768LL),
     {"true"sv, "!"sv, "!"sv, "32768"sv, "32768"sv, "32768"sv, "32768"sv, "!"sv,
      "327680000000000"sv, "32768"sv, "!"sv, "32768"sv, "!"sv, "32768000000"sv, "!"sv,
      "!"sv}},
    {Int(2147483647LL),
     {"true"sv, "!"sv, "!"sv, "2147483647"sv, "2147483647"sv, "2147483648"sv,
      "2147483647"sv, "!"sv, "21474836470000000000"sv, "2147483647"sv, "!"sv,
      "2147483647"sv, "!"sv, "2147483647000000"sv, "!"sv, "!"sv}},
    {Int(2147483648LL),
     {"true"sv, "!"sv, "!"sv, "!"sv, "2147483648"sv, "2147483648"sv, "2147483648"sv,
      "!"sv, "21474836480000000000"sv, "2147483648"sv, "!"sv, "2147483648"sv, "!"sv,
      "2147483648000000"sv, "!"sv, "!"sv}},
    {Int(9223372036854775807LL),
     {"true"sv, "!"sv, "!"sv, "!"sv, "9223372036854775807"sv, "9.2233720368547758e+18"sv,
      "9.2233720368547758e+18"sv, "!"sv, "92233720368547758070000000000"sv, "!"sv, "!"sv,
      "9223372036854775807"sv, "!"sv, "!"sv, "!"sv, "!"sv}},
    {Int(INT64_MIN),
     {"true"sv, "!"sv, "!"sv, "!"sv, "-9223372036854775808"sv,
      "-9.2233720368547758e+18"sv, "-9.2233720368547758e+18"sv, "!"sv,
      "-92233720368547758080000000000"sv, "!"sv, "!"sv, "-9223372036854775808"sv, "!"sv,
      "!"sv, "!"sv, "!"sv}},
    {Dec("15", 1),
     {"true"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1.5"sv, "1.5"sv, "150"sv, "15000000000"sv,
      "2"sv, "!"sv, "1.5"sv, "!"sv, "1500000"sv, "!"sv, "!"sv}},
    {Dec("-15", 1),
     {"true"sv, "-1"sv, "-1"sv, "-1"sv, "-1"sv, "-1.5"sv, "-1.5"sv, "-150"sv,
      "-15000000000"sv, "-2"sv, "!"sv, "-1.5"sv, "!"sv, "-1500000"sv, "!"sv, "!"sv}},
    {Dec("25", 1),
     {"true"sv, "2"sv, "2"sv, "2"sv, "2"sv, "2.5"sv, "2.5"sv, "250"sv, "25000000000"sv,
      "3"sv, "!"sv, "2.5"sv, "!"sv, "2500000"sv, "!"sv, "!"sv}},
    {Dec("-25", 1),
     {"true"sv, "-2"sv, "-2"sv, "-2"sv, "-2"sv, "-2.5"sv, "-2.5"sv, "-250"sv,
      "-25000000000"sv, "-3"sv, "!"sv, "-2.5"sv, "!"sv, "-2500000"sv, "!"sv, "!"sv}},
    {Dec("125", 3),
     {"true"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0.125"sv, "0.125"sv, "13"sv, "1250000000"sv,
      "0"sv, "13"sv, "0.125"sv, "!"sv, "125000"sv, "!"sv, "!"sv}},
    {Dec("123456", 3),
     {"true"sv, "123"sv, "123"sv, "123"sv, "123"sv, "123.45600128173828"sv, "123.456"sv,
      "12346"sv, "1234560000000"sv, "123"sv, "!"sv, "123.456"sv, "!"sv, "123456000"sv,
      "!"sv, "!"sv}},
    {Dec("1005", 3),
     {"true"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1.0049999952316284"sv,
      "1.0049999999999999"sv, "101"sv, "10050000000"sv, "1"sv, "!"sv, "1.005"sv, "!"sv,
      "1005000"sv, "!"sv, "!"sv}},
    {Dec("99999995", 3),
     {"true"sv, "!"sv, "!"sv, "99999"sv, "99999"sv, "99999.9921875"sv,
      "99999.994999999995"sv, "!"sv, "999999950000000"sv, "100000"sv, "!"sv,
      "99999.995"sv, "!"sv, "99999995000"sv, "!"sv, "!"sv}},
    {Dec("999995", 3),
     {"true"sv, "!"sv, "999"sv, "999"sv, "999"sv, "999.9949951171875"sv, "999.995"sv,
      "!"sv, "9999950000000"sv, "1000"sv, "!"sv, "999.995"sv, "!"sv, "999995000"sv, "!"sv,
      "!"sv}},
    {Double(1e3),
     {"true"sv, "!"sv, "1000"sv, "1000"sv, "1000"sv, "1000"sv, "1000"sv, "!"sv,
      "10000000000000"sv, "1000"sv, "!"sv, "1000.0"sv, "!"sv, "1000000000"sv, "!"sv,
      "!"sv}},
    {Double(1.5e300),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "inf"sv, "1.5000000000000001e+300"sv, "!"sv,
      "!"sv, "!"sv, "!"sv, "1.5E300"sv, "!"sv, "!"sv, "!"sv, "!"sv}},
    {Double(-2.5E-3),
     {"true"sv, "0"sv, "0"sv, "0"sv, "0"sv, "-0.0024999999441206455"sv,
      "-0.0025000000000000001"sv, "0"sv, "-25000000"sv, "0"sv, "0"sv, "-0.0025"sv, "!"sv,
      "-2500"sv, "!"sv, "!"sv}},
    {Dec("12345678901234567890", 0),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "1.2345679395506094e+19"sv,
      "1.2345678901234567e+19"sv, "!"sv, "123456789012345678900000000000"sv, "!"sv, "!"sv,
      "12345678901234567890"sv, "!"sv, "!"sv, "!"sv, "!"sv}},
    {Dec("30", 1),
     {"true"sv, "3"sv, "3"sv, "3"sv, "3"sv, "3"sv, "3"sv, "300"sv, "30000000000"sv, "3"sv,
      "!"sv, "3"sv, "!"sv, "3000000"sv, "!"sv, "!"sv}},
    {Dec("1000", 1),
     {"true"sv, "100"sv, "100"sv, "100"sv, "100"sv, "100"sv, "100"sv, "10000"sv,
      "1000000000000"sv, "100"sv, "!"sv, "100"sv, "!"sv, "100000000"sv, "!"sv, "!"sv}},
    {Dec("1", 7),
     {"true"sv, "0"sv, "0"sv, "0"sv, "0"sv, "1.0000000116860974e-07"sv,
      "9.9999999999999995e-08"sv, "0"sv, "1000"sv, "0"sv, "0"sv, "0.0000001"sv, "!"sv,
      "0"sv, "!"sv, "!"sv}},
    {Double(1E-10),
     {"true"sv, "0"sv, "0"sv, "0"sv, "0"sv, "1.000000013351432e-10"sv, "1e-10"sv, "0"sv,
      "1"sv, "0"sv, "0"sv, "1.0E-10"sv, "!"sv, "0"sv, "!"sv, "!"sv}},
    {Dec("12345678901234567890123", 3),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "1.2345679395506094e+19"sv,
      "1.2345678901234567e+19"sv, "!"sv, "123456789012345678901230000000"sv, "!"sv, "!"sv,
      "12345678901234567890.123"sv, "!"sv, "!"sv, "!"sv, "!"sv}},
    {Dec("-5", 1),
     {"true"sv, "0"sv, "0"sv, "0"sv, "0"sv, "-0.5"sv, "-0.5"sv, "-50"sv, "-5000000000"sv,
      "-1"sv, "-50"sv, "-0.5"sv, "!"sv, "-500000"sv, "!"sv, "!"sv}},
    {Dec("5", 1),
     {"true"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0.5"sv, "0.5"sv, "50"sv, "5000000000"sv,
      "1"sv, "50"sv, "0.5"sv, "!"sv, "500000"sv, "!"sv, "!"sv}},
    {Double(1e20),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "1.0000000200408773e+20"sv, "1e+20"sv, "!"sv,
      "1000000000000000000000000000000"sv, "!"sv, "!"sv, "1.0E20"sv, "!"sv, "!"sv, "!"sv,
      "!"sv}},
    {Str("123"),
     {"!"sv, "123"sv, "123"sv, "123"sv, "123"sv, "123"sv, "123"sv, "12300"sv,
      "1230000000000"sv, "123"sv, "!"sv, "123"sv, "!"sv, "!"sv, "!"sv, "313233"sv}},
    {Str(" 42 "),
     {"!"sv, "42"sv, "42"sv, "42"sv, "42"sv, "42"sv, "42"sv, "4200"sv, "420000000000"sv,
      "42"sv, "!"sv, " 42 "sv, "!"sv, "!"sv, "!"sv, "20343220"sv}},
    {Str("1.5"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "1.5"sv, "1.5"sv, "150"sv, "15000000000"sv,
      "2"sv, "!"sv, "1.5"sv, "!"sv, "!"sv, "!"sv, "312e35"sv}},
    {Str("-1.9"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "-1.8999999761581421"sv, "-1.8999999999999999"sv,
      "-190"sv, "-19000000000"sv, "-2"sv, "!"sv, "-1.9"sv, "!"sv, "!"sv, "!"sv,
      "2d312e39"sv}},
    {Str("abc"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "abc"sv, "!"sv, "!"sv, "!"sv, "616263"sv}},
    {Str("true"),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "true"sv, "!"sv, "!"sv, "!"sv, "74727565"sv}},
    {Str("TRUE"),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "TRUE"sv, "!"sv, "!"sv, "!"sv, "54525545"sv}},
    {Str("yes"),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "yes"sv, "!"sv, "!"sv, "!"sv, "796573"sv}},
    {Str("t"),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "t"sv, "!"sv, "!"sv, "!"sv, "74"sv}},
    {Str("0"),
     {"false"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv,
      "0"sv, "!"sv, "!"sv, "!"sv, "30"sv}},
    {Str("1"),
     {"true"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1"sv, "100"sv, "10000000000"sv, "1"sv,
      "!"sv, "1"sv, "!"sv, "!"sv, "!"sv, "31"sv}},
    {Str("2"),
     {"!"sv, "2"sv, "2"sv, "2"sv, "2"sv, "2"sv, "2"sv, "200"sv, "20000000000"sv, "2"sv,
      "!"sv, "2"sv, "!"sv, "!"sv, "!"sv, "32"sv}},
    {Str("2024-02-29"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "2024-02-29"sv, "19782"sv, "1709164800000000"sv, "1709164800000000"sv,
      "323032342d30322d3239"sv}},
    {Str("2024-02-30"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "2024-02-30"sv, "!"sv, "!"sv, "!"sv, "323032342d30322d3330"sv}},
    {Str("2024-01-01 12:34:56"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "2024-01-01 12:34:56"sv, "19723"sv, "1704112496000000"sv, "1704112496000000"sv,
      "323032342d30312d30312031323a33343a3536"sv}},
    {Str("2024-01-01T12:34:56.123456Z"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "2024-01-01T12:34:56.123456Z"sv, "19723"sv, "1704112496123456"sv,
      "1704112496123456"sv, "323032342d30312d30315431323a33343a35362e3132333435365a"sv}},
    {Str("2024-01-01T12:34:56+02:00"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "2024-01-01T12:34:56+02:00"sv, "19723"sv, "1704105296000000"sv,
      "1704112496000000"sv, "323032342d30312d30315431323a33343a35362b30323a3030"sv}},
    {Str("2024-01-01T12:34:56.1234567"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "2024-01-01T12:34:56.1234567"sv, "19723"sv, "1704112496123456"sv,
      "1704112496123456"sv, "323032342d30312d30315431323a33343a35362e31323334353637"sv}},
    {Str("1e2"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "100"sv, "100"sv, "10000"sv, "1000000000000"sv,
      "100"sv, "!"sv, "1e2"sv, "!"sv, "!"sv, "!"sv, "316532"sv}},
    {Str("NaN"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "nan"sv, "nan"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "NaN"sv, "!"sv, "!"sv, "!"sv, "4e614e"sv}},
    {Str("Infinity"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "inf"sv, "inf"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "Infinity"sv, "!"sv, "!"sv, "!"sv, "496e66696e697479"sv}},
    {Str("-0"),
     {"!"sv, "0"sv, "0"sv, "0"sv, "0"sv, "-0"sv, "-0"sv, "0"sv, "0"sv, "0"sv, "0"sv,
      "-0"sv, "!"sv, "!"sv, "!"sv, "2d30"sv}},
    {Str(""),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, ""sv,
      "!"sv, "!"sv, "!"sv, ""sv}},
    {Str("9223372036854775808"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "9.2233720368547758e+18"sv,
      "9.2233720368547758e+18"sv, "!"sv, "92233720368547758080000000000"sv, "!"sv, "!"sv,
      "9223372036854775808"sv, "!"sv, "!"sv, "!"sv,
      "39323233333732303336383534373735383038"sv}},
    {Str("2024"),
     {"!"sv, "!"sv, "2024"sv, "2024"sv, "2024"sv, "2024"sv, "2024"sv, "!"sv,
      "20240000000000"sv, "2024"sv, "!"sv, "2024"sv, "19723"sv, "1704067200000000"sv,
      "1704067200000000"sv, "32303234"sv}},
    {Str("2024-03"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "2024-03"sv, "19783"sv, "1709251200000000"sv, "1709251200000000"sv,
      "323032342d3033"sv}},
    {Str(" 2024-03-05 "),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      " 2024-03-05 "sv, "19787"sv, "1709596800000000"sv, "1709596800000000"sv,
      "20323032342d30332d303520"sv}},
    {Str("+1"),
     {"!"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1"sv, "100"sv, "10000000000"sv, "1"sv,
      "!"sv, "+1"sv, "!"sv, "!"sv, "!"sv, "2b31"sv}},
    {Str("0x10"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "0x10"sv, "!"sv, "!"sv, "!"sv, "30783130"sv}},
    {Str("1.0"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "1"sv, "1"sv, "100"sv, "10000000000"sv, "1"sv,
      "!"sv, "1.0"sv, "!"sv, "!"sv, "!"sv, "312e30"sv}},
    {Str("12.345"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "12.345000267028809"sv, "12.345000000000001"sv,
      "1235"sv, "123450000000"sv, "12"sv, "!"sv, "12.345"sv, "!"sv, "!"sv, "!"sv,
      "31322e333435"sv}},
    {Str("1.5e2"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "150"sv, "150"sv, "15000"sv, "1500000000000"sv,
      "150"sv, "!"sv, "1.5e2"sv, "!"sv, "!"sv, "!"sv, "312e356532"sv}},
    {Str("99999.999"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "100000"sv, "99999.998999999996"sv, "!"sv,
      "999999990000000"sv, "100000"sv, "!"sv, "99999.999"sv, "!"sv, "!"sv, "!"sv,
      "39393939392e393939"sv}},
    {Str("2024-01-01T25:00:00"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "2024-01-01T25:00:00"sv, "19723"sv, "!"sv, "!"sv,
      "323032342d30312d30315432353a30303a3030"sv}},
    {Str("h\xc3"
         "\xa9"
         "llo"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "h\xc3"
      "\xa9"
      "llo"sv,
      "!"sv, "!"sv, "!"sv, "68c3a96c6c6f"sv}},
    {Json("{\"a\":1,\"b\":[1,2]}"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "{\"a\":1,\"b\":[1,2]}"sv, "!"sv, "!"sv, "!"sv, "!"sv}},
    {Json("[1,\"x\",null]"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "[1,\"x\",null]"sv, "!"sv, "!"sv, "!"sv, "!"sv}},
    {Json("{}"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "{}"sv,
      "!"sv, "!"sv, "!"sv, "!"sv}},
    {Json("[]"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "[]"sv,
      "!"sv, "!"sv, "!"sv, "!"sv}},
    {Json("{\"z\":1.50,\"a\":\"s\"}"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "{\"a\":\"s\",\"z\":1.5}"sv, "!"sv, "!"sv, "!"sv, "!"sv}},
    {Date(19782),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "2024-02-29"sv, "19782"sv, "1709164800000000"sv, "1709164800000000"sv, "!"sv}},
    {Date(-1),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "1969-12-31"sv, "-1"sv, "-86400000000"sv, "-86400000000"sv, "!"sv}},
    {Ts(1704112496789000),
     {"!"sv, "!"sv, "!"sv, "1704112496"sv, "1704112496"sv, "1704112512"sv,
      "1704112496.789"sv, "!"sv, "17041124967890000000"sv, "1704112497"sv, "!"sv,
      "2024-01-01 12:34:56.789"sv, "19723"sv, "1704112496789000"sv, "1704112496789000"sv,
      "!"sv}},
    {Ts(-500000),
     {"!"sv, "-1"sv, "-1"sv, "-1"sv, "-1"sv, "-0.5"sv, "-0.5"sv, "-50"sv, "-5000000000"sv,
      "-1"sv, "-50"sv, "1969-12-31 23:59:59.5"sv, "-1"sv, "-500000"sv, "-500000"sv,
      "!"sv}},
    {Ntz(1704112496789000),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "2024-01-01 12:34:56.789"sv, "19723"sv, "1704112496789000"sv, "1704112496789000"sv,
      "!"sv}},
    {Float(1.5f),
     {"true"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1.5"sv, "1.5"sv, "150"sv, "15000000000"sv,
      "2"sv, "!"sv, "1.5"sv, "!"sv, "1500000"sv, "!"sv, "!"sv}},
    {Float(0.1f),
     {"true"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0.10000000149011612"sv,
      "0.10000000149011612"sv, "10"sv, "1000000015"sv, "0"sv, "10"sv, "0.1"sv, "!"sv,
      "100000"sv, "!"sv, "!"sv}},
    {Float(3e38f),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "3.0000000054977558e+38"sv,
      "3.0000000054977558e+38"sv, "!"sv, "!"sv, "!"sv, "!"sv, "3.0E38"sv, "!"sv, "!"sv,
      "!"sv, "!"sv}},
    {Double(0.1),
     {"true"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0.10000000149011612"sv,
      "0.10000000000000001"sv, "10"sv, "1000000000"sv, "0"sv, "10"sv, "0.1"sv, "!"sv,
      "100000"sv, "!"sv, "!"sv}},
    {Double(NAN),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "nan"sv, "nan"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "NaN"sv, "!"sv, "!"sv, "!"sv, "!"sv}},
    {Double(1e21),
     {"true"sv, "!"sv, "!"sv, "!"sv, "!"sv, "1.0000000200408773e+21"sv, "1e+21"sv, "!"sv,
      "10000000000000000000000000000000"sv, "!"sv, "!"sv, "1.0E21"sv, "!"sv, "!"sv, "!"sv,
      "!"sv}},
    {Double(0.0),
     {"false"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv, "0"sv,
      "0.0"sv, "!"sv, "0"sv, "!"sv, "!"sv}},
    {Binary("00ff41"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv,
      "\x00"
      "\xef"
      "\xbf"
      "\xbd"
      "A"sv,
      "!"sv, "!"sv, "!"sv, "00ff41"sv}},
    {Binary("3132"),
     {"!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "!"sv, "12"sv,
      "!"sv, "!"sv, "!"sv, "3132"sv}},
    {Int8(5),
     {"true"sv, "5"sv, "5"sv, "5"sv, "5"sv, "5"sv, "5"sv, "500"sv, "50000000000"sv, "5"sv,
      "!"sv, "5"sv, "!"sv, "5000000"sv, "!"sv, "!"sv}},
    {Dec("120", 2),
     {"true"sv, "1"sv, "1"sv, "1"sv, "1"sv, "1.2000000476837158"sv, "1.2"sv, "120"sv,
      "12000000000"sv, "1"sv, "!"sv, "1.2"sv, "!"sv, "1200000"sv, "!"sv, "!"sv}},
};

TEST(VariantCastTest, MatchesSparkForEverySourceAndTarget) {
  std::vector<VariantCaster> casters;
  for (const CastTarget& t : kTargets) {
    VS_ASSIGN_OR_FAIL(auto caster, VariantCaster::Make(t));
    casters.push_back(std::move(caster));
  }
  int checked = 0;
  for (const Case& c : kSparkCases) {
    VariantBuilder b;
    c.source.build(&b);
    std::string md, value;
    VS_ASSERT_OK(b.Finish(&md, &value));
    const VariantView v =
        VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), value);
    for (size_t t = 0; t < kNumTargets; ++t) {
      EXPECT_EQ(ResultText(casters[t], v), c.expected[t])
          << c.source.label << " -> " << kTargets[t].ToString();
      ++checked;
    }
  }
  EXPECT_EQ(checked, 92 * 16);
}

// Recorded from Spark 4.3 (try_variant_get of parse_json): a Variant's decimal is a
// java BigDecimal there, cast to int, smallint and tinyint through its double value
// and to bigint exactly; rounding into a smaller scale is half up at every width
// (doubling the remainder of a scale-38 value overflowed 128 bits: 0.95 gave 0).
TEST(VariantCastTest, DecimalsCastAsSparksBigDecimalsDo) {
  const std::string nines38(38, '9');
  const std::string almost128 = "127" + nines38.substr(3);  // Dec() keeps the pointer
  const struct {
    Source source;
    CastTarget target;
    std::string_view expected;
  } cases[] = {
      {Dec("99999999999999999", 17), {CastTargetType::kInt32}, "1"},
      {Dec("99999999999999999", 17), {CastTargetType::kInt16}, "1"},
      {Dec("99999999999999999", 17), {CastTargetType::kInt8}, "1"},
      {Dec("99999999999999999", 17), {CastTargetType::kInt64}, "0"},
      {Dec("-99999999999999999", 17), {CastTargetType::kInt32}, "-1"},
      {Dec("-99999999999999999", 17), {CastTargetType::kInt64}, "0"},
      {Dec(nines38.c_str(), 37), {CastTargetType::kInt32}, "10"},
      {Dec(nines38.c_str(), 37), {CastTargetType::kInt64}, "9"},
      {Dec(almost128.c_str(), 35), {CastTargetType::kInt8}, "!"},
      {Dec(almost128.c_str(), 35), {CastTargetType::kInt16}, "128"},
      {Dec(almost128.c_str(), 35), {CastTargetType::kInt64}, "127"},
      {Dec("2147483647", 0), {CastTargetType::kInt32}, "2147483647"},
      {Dec("2147483648", 0), {CastTargetType::kInt32}, "!"},
      {Dec("95000000000000000000000000000000000000", 38), CastTarget::Decimal(1, 0), "1"},
      {Dec(nines38.c_str(), 38), CastTarget::Decimal(38, 0), "1"},
      {Dec("60000000000000000000000000000000000001", 38), CastTarget::Decimal(10, 0),
       "1"},
      {Dec("-85000000000000000000000000000000000000", 38), CastTarget::Decimal(1, 0),
       "-1"},
      {Dec("49999999999999999999999999999999999999", 38), CastTarget::Decimal(1, 0), "0"},
      {Dec("50000000000000000000000000000000000000", 38), CastTarget::Decimal(1, 0), "1"},
  };
  for (const auto& c : cases) {
    VS_ASSIGN_OR_FAIL(auto caster, VariantCaster::Make(c.target));
    VariantBuilder b;
    c.source.build(&b);
    std::string md, value;
    VS_ASSERT_OK(b.Finish(&md, &value));
    const VariantView v =
        VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), value);
    EXPECT_EQ(ResultText(caster, v), c.expected)
        << c.source.label << " -> " << c.target.ToString();
  }
}

TEST(VariantCastTest, TargetNamesAreSparks) {
  EXPECT_EQ(CastTarget{CastTargetType::kInt8}.ToString(), "TINYINT");
  EXPECT_EQ(CastTarget::Decimal(38, 10).ToString(), "DECIMAL(38,10)");
  EXPECT_EQ(CastTarget{CastTargetType::kTimestampNtz}.ToString(), "TIMESTAMP_NTZ");
}

TEST(VariantCastTest, InvalidCastMessageNamesValueTypeAndTarget) {
  VariantBuilder b;
  b.AppendString("abc");
  std::string md, value;
  VS_ASSERT_OK(b.Finish(&md, &value));
  VS_ASSIGN_OR_FAIL(auto caster, VariantCaster::Make({CastTargetType::kInt32}));
  EXPECT_EQ(caster.InvalidCastMessage(
                VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), value)),
            "[INVALID_VARIANT_CAST] The variant value `\"abc\"` (string) cannot be cast "
            "into \"INT\"");
}

TEST(VariantCastTest, RejectsBadDecimalTargetsAndUnknownZones) {
  EXPECT_TRUE(VariantCaster::Make(CastTarget::Decimal(39, 0)).status().IsInvalid());
  EXPECT_TRUE(VariantCaster::Make(CastTarget::Decimal(5, 6)).status().IsInvalid());
  EXPECT_TRUE(TimeZone::Make("Mars/Olympus").status().IsInvalid());
  EXPECT_TRUE(TimeZone::Make("+25:00").status().IsInvalid());
}

TEST(TimeZoneTest, ParsesUtcAndFixedOffsets) {
  for (auto [name, seconds] :
       std::initializer_list<std::pair<const char*, int32_t>>{{"UTC", 0},
                                                              {"Z", 0},
                                                              {"+02:00", 7200},
                                                              {"-08", -28800},
                                                              {"+0530", 19800},
                                                              {"UTC-03:30", -12600},
                                                              {"GMT+1", 3600}}) {
    VS_ASSIGN_OR_FAIL(TimeZone tz, TimeZone::Make(name));
    EXPECT_EQ(tz.OffsetAt(0), seconds) << name;
  }
}

// A region zone resolves wall-clock times as java.time does (Spark's casts): DST shifts
// the offset, a time in the spring-forward gap moves later by the gap, a time in the
// fall-back overlap takes the earlier offset.
TEST(TimeZoneTest, RegionZonesFollowDaylightSavingLikeJavaTime) {
  VS_ASSIGN_OR_FAIL(TimeZone la, TimeZone::Make("America/Los_Angeles"));
  constexpr int64_t kHour = 3600LL * 1000000;
  const int64_t jul1 = 19905LL * 24 * kHour;   // 2024-07-01 00:00 (as local or UTC)
  const int64_t jan1 = 19723LL * 24 * kHour;   // 2024-01-01
  const int64_t mar10 = 19792LL * 24 * kHour;  // 2024-03-10: 02:00 -> 03:00
  const int64_t nov3 = 20030LL * 24 * kHour;   // 2024-11-03: 02:00 -> 01:00
  EXPECT_EQ(la.OffsetAt(jul1 / 1000000), -7 * 3600);
  EXPECT_EQ(la.OffsetAt(jan1 / 1000000), -8 * 3600);
  EXPECT_EQ(la.ToUtcMicros(jul1 + 12 * kHour), jul1 + 19 * kHour);
  EXPECT_EQ(la.ToUtcMicros(jan1 + 12 * kHour), jan1 + 20 * kHour);
  EXPECT_EQ(la.ToUtcMicros(mar10 + 2 * kHour + kHour / 2),
            mar10 + 10 * kHour + kHour / 2);
  EXPECT_EQ(la.ToUtcMicros(mar10 + 3 * kHour + kHour / 2),
            mar10 + 10 * kHour + kHour / 2);
  EXPECT_EQ(la.ToUtcMicros(nov3 + kHour + kHour / 2), nov3 + 8 * kHour + kHour / 2);
  EXPECT_EQ(la.ToLocalMicros(nov3 + 9 * kHour + kHour / 2), nov3 + kHour + kHour / 2);
  EXPECT_EQ(la.ToLocalMicros(jul1 + 19 * kHour), jul1 + 12 * kHour);
  VS_ASSIGN_OR_FAIL(TimeZone kolkata, TimeZone::Make("Asia/Kolkata"));
  EXPECT_EQ(kolkata.ToUtcMicros(jul1), jul1 - (5 * kHour + kHour / 2));
}

// At the ends of int64 microseconds a zone's offset has no room: the instant's wall
// clock is still printed (in seconds), and a cast whose result lies past the range is
// invalid, as Spark's try_variant_get gives null (tests/python checks against Spark).
TEST(TimeZoneTest, ShiftsPastInt64MicrosecondsAreNotRepresentable) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  VS_ASSIGN_OR_FAIL(TimeZone la, TimeZone::Make("America/Los_Angeles"));
  EXPECT_EQ(la.ToLocalMicros(kMin), std::nullopt);  // LMT, -7:52:58
  EXPECT_EQ(la.ToLocalMicros(kMax), kMax - 8 * 3600 * int64_t{1000000});
  EXPECT_EQ(la.ToUtcMicros(kMax), std::nullopt);
  EXPECT_EQ(la.ToUtcMicros(kMin), kMin + (7 * 3600 + 52 * 60 + 58) * int64_t{1000000});
  VS_ASSIGN_OR_FAIL(TimeZone utc, TimeZone::Make("UTC"));
  EXPECT_EQ(utc.ToLocalMicros(kMin), kMin);
  EXPECT_EQ(utc.ToUtcMicros(kMax), kMax);
}

TEST(VariantCastTest, TimesAtTheEndsOfTheirRangeCastAsSpark) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  const Built built[] = {Built(Ts(kMin)),
                         Built(Ntz(kMax)),
                         Built(Date(2932897)),
                         Built(Str("-290308-12-21 19:59:06")),
                         Built(Str("9999999-01-01 00:00:00")),
                         Built(Str("294247-01-10"))};
  const VariantView first = built[0].view(), last = built[1].view(),
                    far_date = built[2].view(), late_text = built[3].view(),
                    huge_text = built[4].view(), end_text = built[5].view();
  CastOptions la;
  la.timezone = "America/Los_Angeles";

  VS_ASSIGN_OR_FAIL(auto to_string, VariantCaster::Make({CastTargetType::kString}));
  VS_ASSIGN_OR_FAIL(auto to_string_la,
                    VariantCaster::Make({CastTargetType::kString}, la));
  std::string s;
  ASSERT_EQ(to_string.CastString(first, &s), CastResult::kOk);
  EXPECT_EQ(s, "-290308-12-21 19:59:05.224192");
  s.clear();
  ASSERT_EQ(to_string_la.CastString(first, &s), CastResult::kOk);
  EXPECT_EQ(s, "-290308-12-21 12:06:07.224192");  // was year 294247: wrapped around
  s.clear();
  ASSERT_EQ(to_string_la.CastString(last, &s), CastResult::kOk);
  EXPECT_EQ(s, "+294247-01-10 04:00:54.775807");  // ntz: no zone; '+' past 9999
  s.clear();
  ASSERT_EQ(to_string.CastString(far_date, &s), CastResult::kOk);
  EXPECT_EQ(s, "+10000-01-01");

  VS_ASSIGN_OR_FAIL(auto to_date_la, VariantCaster::Make({CastTargetType::kDate}, la));
  int32_t days;
  ASSERT_EQ(to_date_la.CastDate(first, &days), CastResult::kOk);
  EXPECT_EQ(days, -106751992);

  VS_ASSIGN_OR_FAIL(auto to_ts, VariantCaster::Make({CastTargetType::kTimestamp}));
  VS_ASSIGN_OR_FAIL(auto to_ts_la, VariantCaster::Make({CastTargetType::kTimestamp}, la));
  VS_ASSIGN_OR_FAIL(auto to_ntz_la,
                    VariantCaster::Make({CastTargetType::kTimestampNtz}, la));
  int64_t us;
  ASSERT_EQ(to_ts.CastTimestamp(late_text, &us), CastResult::kOk);
  EXPECT_EQ(us, -9223372036854000000);  // the day starts before the range, ends in it
  EXPECT_EQ(to_ts.CastTimestamp(huge_text, &us), CastResult::kInvalid);
  EXPECT_EQ(to_ts_la.CastTimestamp(end_text, &us), CastResult::kInvalid);
  EXPECT_EQ(to_ts_la.CastTimestamp(last, &us), CastResult::kInvalid);
  EXPECT_EQ(to_ntz_la.CastTimestamp(first, &us), CastResult::kInvalid);

  // Seconds as a double whose microseconds are 2^63: Spark's check against
  // Long.MaxValue (2^63 as a double) passes and its conversion saturates (the probes
  // of 2026-11-30 found NULL here); just below, the exact value; above, invalid.
  const Built at_limit(Double(9.223372036854775e12)), below(Double(9.2e12)),
      past(Double(9.3e12)), low_limit(Double(-9.223372036854775808e12));
  ASSERT_EQ(to_ts.CastTimestamp(at_limit.view(), &us), CastResult::kOk);
  EXPECT_EQ(us, kMax);
  ASSERT_EQ(to_ts.CastTimestamp(below.view(), &us), CastResult::kOk);
  EXPECT_EQ(us, 9200000000000000000);
  EXPECT_EQ(to_ts.CastTimestamp(past.view(), &us), CastResult::kInvalid);
  ASSERT_EQ(to_ts.CastTimestamp(low_limit.view(), &us), CastResult::kOk);
  EXPECT_EQ(us, kMin);
}

// Session time zone +02:00: timestamps print and truncate to dates in local time;
// dates and zone-less strings are local midnight / local wall-clock time.
// The string cast and to_json print floats and doubles with one printer: the shortest
// round-trip digits, at least two (Java 19+'s Double/Float.toString).
TEST(VariantCastTest, FloatingToStringIsTheJsonText) {
  struct Case {
    std::function<void(VariantBuilder*)> build;
    std::string want;
  };
  auto d = [](double x) { return [x](VariantBuilder* b) { b->AppendDouble(x); }; };
  auto f = [](float x) { return [x](VariantBuilder* b) { b->AppendFloat(x); }; };
  const std::vector<Case> cases = {
      {d(4.9e-324), "4.9E-324"},  // Double.MIN_VALUE: two digits, not 5.0E-324
      {d(-4.9e-324), "-4.9E-324"},
      {d(1e-323), "9.9E-324"},
      {d(2.2250738585072014e-308), "2.2250738585072014E-308"},
      {d(1.7976931348623157e308), "1.7976931348623157E308"},
      {d(1e21), "1.0E21"},
      {d(1e-7), "1.0E-7"},
      {d(0.001), "0.001"},
      {d(9.99e-4), "9.99E-4"},
      {d(9999999.0), "9999999.0"},
      {d(1e7), "1.0E7"},
      {d(2e23), "2.0E23"},
      {d(-0.0), "-0.0"},
      {d(100.0), "100.0"},
      {f(1.4e-45f), "1.4E-45"},  // Float.MIN_VALUE
      {f(2.8e-45f), "2.8E-45"},
      {f(1.17549435e-38f), "1.1754944E-38"},
      {f(3.4028235e38f), "3.4028235E38"},
      {f(0.1f), "0.1"},
      {f(1e7f), "1.0E7"},
      {f(-0.0f), "-0.0"},
  };
  VS_ASSIGN_OR_FAIL(auto to_string, VariantCaster::Make({CastTargetType::kString}));
  VS_ASSIGN_OR_FAIL(auto json, JsonWriter::Make({}));
  for (const Case& c : cases) {
    VariantBuilder b;
    c.build(&b);
    std::string md, value;
    ASSERT_TRUE(b.Finish(&md, &value).ok());
    const auto v = VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), value);
    std::string cast, text;
    ASSERT_EQ(to_string.CastString(v, &cast), CastResult::kOk);
    ASSERT_TRUE(json.Write(v, &text).ok());
    EXPECT_EQ(cast, c.want);
    EXPECT_EQ(text, c.want);
  }
}

// Nanosecond timestamps (DuckDB writes them; Spark cannot read them) keep every digit
// as strings, as to_json prints them: the cast had floored them to microseconds.
TEST(VariantCastTest, NanosecondTimestampsToStringKeepTheirDigits) {
  CastOptions options;
  options.timezone = "Asia/Kolkata";
  VS_ASSIGN_OR_FAIL(auto to_string,
                    VariantCaster::Make({CastTargetType::kString}, options));
  const int64_t nanos = 1'577'872'800'123'456'789;  // 2020-01-01 10:00:00.123456789 UTC
  const struct {
    std::function<void(VariantBuilder*)> build;
    std::string want;
  } cases[] = {
      {[&](VariantBuilder* b) { b->AppendTimestampNanos(nanos); },
       "2020-01-01 15:30:00.123456789"},
      {[&](VariantBuilder* b) { b->AppendTimestampNtzNanos(nanos); },
       "2020-01-01 10:00:00.123456789"},
      {[&](VariantBuilder* b) { b->AppendTimestampNtzNanos(-1); },
       "1969-12-31 23:59:59.999999999"},
      {[&](VariantBuilder* b) { b->AppendTimestampNtzNanos(1'500'000'000); },
       "1970-01-01 00:00:01.5"},
      {[&](VariantBuilder* b) { b->AppendTimestampMicros(nanos / 1000); },
       "2020-01-01 15:30:00.123456"},
  };
  for (const auto& c : cases) {
    VariantBuilder b;
    c.build(&b);
    std::string md, value;
    ASSERT_TRUE(b.Finish(&md, &value).ok());
    std::string cast;
    ASSERT_EQ(
        to_string.CastString(
            VariantView::MakeUnchecked(MetadataView::MakeUnchecked(md), value), &cast),
        CastResult::kOk);
    EXPECT_EQ(cast, c.want);
  }
}

// Recorded from Spark 4.3 (try_variant_get, session zone UTC): its grammar takes any
// prefix of the full form, a trailing '.', region and short zone ids, and refuses a
// zone right after the minutes or a time after a year or a year-month.
TEST(VariantCastTest, TimestampTextFollowsSparksGrammar) {
  VS_ASSIGN_OR_FAIL(auto to_ts, VariantCaster::Make({CastTargetType::kTimestamp}));
  VS_ASSIGN_OR_FAIL(auto to_date, VariantCaster::Make({CastTargetType::kDate}));
  VS_ASSIGN_OR_FAIL(auto to_int, VariantCaster::Make({CastTargetType::kInt32}));
  const struct {
    const VariantCaster& caster;
    const char* text;
    std::string_view expected;  // as ResultText() renders it: microseconds, days, "!"
  } cases[] = {
      {to_ts, "2024-02-29 12", "1709208000000000"},
      {to_ts, "2024-02-29 12:34:56.", "1709210096000000"},
      {to_ts, "2024-02-29 12:34:56.Z", "1709210096000000"},
      {to_ts, "2024-02-29 12:34:56 Europe/Paris", "1709206496000000"},
      {to_ts, "2024-02-29 12:34:56 PST", "1709238896000000"},
      {to_ts, "2024-02-29T12:34:56America/Los_Angeles", "1709238896000000"},
      {to_ts, "2024-02-29 12:34:56+0530", "1709190296000000"},
      {to_ts, "2024-02-29 12:34:56.123456789012Z", "1709210096123456"},
      {to_ts, "2024-02-29 12:34Z", "!"},
      {to_ts, "2024-02-29 12:34+02:00", "!"},
      {to_ts, "2024 12:34:56", "!"},
      {to_ts, "2024-02 12:00", "!"},
      {to_ts, "2024-02-29 12:34:56 Mars/Olympus", "!"},
      {to_ts, "12:34:56", "!"},  // a time alone: NULL on purpose (docs/interop.md)
      {to_ts, "2021-03-04\x7f", "1614816000000000"},  // DEL is trimmed
      {to_ts, "2021-03-04T05:06:07+1:2", "1614830647000000"},
      {to_ts, "2021-03-04T05:06:07+18:00", "1614769567000000"},
      {to_ts, "2021-03-04T05:06:07+18:01", "!"},  // past Java's +-18:00
      {to_ts, "2021-03-04T05:06:07UTC-18:00:01", "!"},
      {to_ts, "294247-01-10 12:00:00+11:00", "9223372026000000000"},
      {to_ts, "-290308-12-21 12:00:00-08:00", "-9223372036800000000"},
      {to_ts, "294247-01-10 12:00:00", "!"},
      {to_int, "12\x7f", "12"},
      {to_date,
       "\x7f"
       "2021-03-04",
       "18690"},
      {to_date, "2024-02-29T12", "19782"},
      {to_date, "2024-02-29 anything", "19782"},
      {to_date, "2024", "19723"},
      {to_date, "2024T12", "!"},
      {to_date, "2024-02 x", "!"},
  };
  for (const auto& c : cases) {
    const Built b(Str(c.text));
    EXPECT_EQ(ResultText(c.caster, b.view()), c.expected) << c.text;
  }
}

TEST(VariantCastTest, SessionTimeZoneShiftsLocalTimes) {
  CastOptions options;
  options.timezone = "+02:00";
  const Built built[] = {Built(Ts(1704151800000000)),  // 2024-01-01 23:30:00 UTC
                         Built(Date(19723)), Built(Str("2024-01-01 12:00:00"))};
  const VariantView ts = built[0].view(), date = built[1].view(), text = built[2].view();

  VS_ASSIGN_OR_FAIL(auto to_string,
                    VariantCaster::Make({CastTargetType::kString}, options));
  std::string s;
  ASSERT_EQ(to_string.CastString(ts, &s), CastResult::kOk);
  EXPECT_EQ(s, "2024-01-02 01:30:00");

  VS_ASSIGN_OR_FAIL(auto to_date, VariantCaster::Make({CastTargetType::kDate}, options));
  int32_t days;
  ASSERT_EQ(to_date.CastDate(ts, &days), CastResult::kOk);
  EXPECT_EQ(days, 19724);

  VS_ASSIGN_OR_FAIL(auto to_ts,
                    VariantCaster::Make({CastTargetType::kTimestamp}, options));
  int64_t us;
  ASSERT_EQ(to_ts.CastTimestamp(date, &us), CastResult::kOk);
  EXPECT_EQ(us, 1704067200000000 - 7200000000);
  ASSERT_EQ(to_ts.CastTimestamp(text, &us), CastResult::kOk);
  EXPECT_EQ(us, 1704110400000000 - 7200000000);

  VS_ASSIGN_OR_FAIL(auto to_ntz,
                    VariantCaster::Make({CastTargetType::kTimestampNtz}, options));
  ASSERT_EQ(to_ntz.CastTimestamp(ts, &us), CastResult::kOk);
  EXPECT_EQ(us, 1704151800000000 + 7200000000);
}

}  // namespace
}  // namespace varshred
