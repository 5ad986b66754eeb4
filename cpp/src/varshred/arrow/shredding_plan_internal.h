// Licensed under the Apache License, Version 2.0.
//
// Transitional: its helpers moved to container_encoding_internal.h, decimal_internal.h
// and arrow/extension_internal.h; shredding_stats.cc still includes this name.

#pragma once

#include "varshred/arrow/extension_internal.h"
