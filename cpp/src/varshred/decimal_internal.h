// Licensed under the Apache License, Version 2.0.
//
// Powers of ten for decimal rescaling and precision checks. Arrow-free.

#pragma once

#include <vector>

#include "varshred/format.h"

namespace varshred::internal {

/// 10^i for i in 0..38.
inline const int128_t* Pow10Table() {
  static const auto table = [] {
    std::vector<int128_t> t(39);
    t[0] = 1;
    for (int i = 1; i <= 38; ++i) t[i] = t[i - 1] * 10;
    return t;
  }();
  return table.data();
}

}  // namespace varshred::internal
