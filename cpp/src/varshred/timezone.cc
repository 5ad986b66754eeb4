// Licensed under the Apache License, Version 2.0.
//
// Time zones: the TZif reader and POSIX TZ rules (internal::TimeZone), and the public
// TimeZone of the casts (Spark's zone names on top of it).

#include "varshred/timezone.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <map>
#include <mutex>
#include <sstream>
#include <utility>

#include "calendar_internal.h"
#include "cast_text_internal.h"
#include "timezone_internal.h"

namespace varshred::internal {

namespace {

// Parses [+-]hh[:mm[:ss]] (POSIX TZ offsets and rule times). Returns seconds.
bool ParseHms(std::string_view* s, int32_t* out, int max_hours) {
  bool negative = false;
  if (!s->empty() && ((*s)[0] == '+' || (*s)[0] == '-')) {
    negative = (*s)[0] == '-';
    s->remove_prefix(1);
  }
  int32_t parts[3] = {0, 0, 0};
  for (int i = 0; i < 3; ++i) {
    if (i > 0) {
      if (s->empty() || (*s)[0] != ':') break;
      s->remove_prefix(1);
    }
    int digits = 0;
    int32_t v = 0;
    while (!s->empty() && (*s)[0] >= '0' && (*s)[0] <= '9' && digits < 3) {
      v = v * 10 + ((*s)[0] - '0');
      s->remove_prefix(1);
      ++digits;
    }
    if (digits == 0) return false;
    parts[i] = v;
  }
  if (parts[0] > max_hours || parts[1] > 59 || parts[2] > 59) return false;
  const int32_t secs = parts[0] * 3600 + parts[1] * 60 + parts[2];
  *out = negative ? -secs : secs;
  return true;
}

bool ParseTzName(std::string_view* s) {
  if (!s->empty() && (*s)[0] == '<') {
    const size_t close = s->find('>');
    if (close == std::string_view::npos) return false;
    s->remove_prefix(close + 1);
    return true;
  }
  size_t n = 0;
  while (n < s->size() &&
         (((*s)[n] >= 'A' && (*s)[n] <= 'Z') || ((*s)[n] >= 'a' && (*s)[n] <= 'z'))) {
    ++n;
  }
  if (n < 3) return false;
  s->remove_prefix(n);
  return true;
}

bool ParseNumber(std::string_view* s, int* out) {
  int v = 0, digits = 0;
  while (!s->empty() && (*s)[0] >= '0' && (*s)[0] <= '9' && digits < 4) {
    v = v * 10 + ((*s)[0] - '0');
    s->remove_prefix(1);
    ++digits;
  }
  *out = v;
  return digits > 0;
}

bool ParseRuleDate(std::string_view* s, PosixTzRule::Date* d) {
  if (s->empty()) return false;
  if ((*s)[0] == 'M') {
    s->remove_prefix(1);
    d->kind = 'M';
    if (!ParseNumber(s, &d->month) || s->empty() || (*s)[0] != '.') return false;
    s->remove_prefix(1);
    if (!ParseNumber(s, &d->week) || s->empty() || (*s)[0] != '.') return false;
    s->remove_prefix(1);
    if (!ParseNumber(s, &d->day)) return false;
    if (d->month < 1 || d->month > 12 || d->week < 1 || d->week > 5 || d->day > 6) {
      return false;
    }
  } else if ((*s)[0] == 'J') {
    s->remove_prefix(1);
    d->kind = 'J';
    if (!ParseNumber(s, &d->day) || d->day < 1 || d->day > 365) return false;
  } else {
    d->kind = 'N';
    if (!ParseNumber(s, &d->day) || d->day > 365) return false;
  }
  d->time = 7200;
  if (!s->empty() && (*s)[0] == '/') {
    s->remove_prefix(1);
    // RFC 8536 (version 3) allows -167..167 hours.
    if (!ParseHms(s, &d->time, 167)) return false;
  }
  return true;
}

// Day (since the epoch) on which a rule date falls in `year`.
int64_t RuleDay(const PosixTzRule::Date& d, int64_t year) {
  const int64_t jan1 = DaysFromCivil(year, 1, 1);
  switch (d.kind) {
    case 'J':  // Feb 29 is never counted
      return jan1 + d.day - 1 + (IsLeapYear(year) && d.day >= 60 ? 1 : 0);
    case 'N':
      return jan1 + d.day;
    default: {
      const int64_t first = DaysFromCivil(year, d.month, 1);
      const int weekday = static_cast<int>(((first + 4) % 7 + 7) % 7);  // 0 = Sunday
      int mday = 1 + (d.day - weekday + 7) % 7 + (d.week - 1) * 7;
      while (mday > DaysInMonth(year, d.month)) mday -= 7;
      return first + mday - 1;
    }
  }
}

}  // namespace

int32_t PosixTzRule::OffsetAt(int64_t utc_seconds) const {
  if (!has_dst) return std_offset;
  int64_t year;
  int month, day;
  CivilFromDays(FloorDiv(utc_seconds + std_offset, kSecondsPerDay), &year, &month, &day);
  // The start is given in standard time, the end in daylight time.
  const int64_t start =
      RuleDay(this->start, year) * kSecondsPerDay + this->start.time - std_offset;
  const int64_t end =
      RuleDay(this->end, year) * kSecondsPerDay + this->end.time - dst_offset;
  const bool dst = start < end ? (utc_seconds >= start && utc_seconds < end)
                               : !(utc_seconds >= end && utc_seconds < start);
  return dst ? dst_offset : std_offset;
}

arrow::Result<PosixTzRule> ParsePosixTz(std::string_view tz) {
  const std::string_view original = tz;
  auto fail = [&]() {
    return arrow::Status::Invalid("unsupported POSIX TZ rule \"", original, "\"");
  };
  PosixTzRule rule;
  int32_t west = 0;
  if (!ParseTzName(&tz) || !ParseHms(&tz, &west, 24)) return fail();
  rule.std_offset = -west;  // POSIX offsets count west of Greenwich
  if (tz.empty()) return rule;
  if (!ParseTzName(&tz)) return fail();
  rule.has_dst = true;
  rule.dst_offset = rule.std_offset + 3600;
  if (!tz.empty() && tz[0] != ',') {
    if (!ParseHms(&tz, &west, 24)) return fail();
    rule.dst_offset = -west;
  }
  if (tz.empty()) {
    // POSIX leaves the default rule to the implementation; use the US one.
    tz = ",M3.2.0,M11.1.0";
  }
  if (tz[0] != ',') return fail();
  tz.remove_prefix(1);
  if (!ParseRuleDate(&tz, &rule.start) || tz.empty() || tz[0] != ',') return fail();
  tz.remove_prefix(1);
  if (!ParseRuleDate(&tz, &rule.end) || !tz.empty()) return fail();
  return rule;
}

TimeZone TimeZone::Fixed(int32_t offset_seconds) {
  TimeZone tz;
  tz.fixed_offset_ = offset_seconds;
  return tz;
}

int32_t TimeZone::OffsetAt(int64_t utc_seconds) const {
  if (transitions_.empty())
    return has_rule_ ? rule_.OffsetAt(utc_seconds) : fixed_offset_;
  if (utc_seconds < transitions_.front()) return fixed_offset_;
  if (has_rule_ && utc_seconds >= transitions_.back()) return rule_.OffsetAt(utc_seconds);
  const auto it = std::upper_bound(transitions_.begin(), transitions_.end(), utc_seconds);
  return offsets_[static_cast<size_t>(it - transitions_.begin()) - 1];
}

namespace {

uint32_t ReadBE32(const unsigned char* p) {
  return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | p[3];
}
int64_t ReadBE64(const unsigned char* p) {
  return static_cast<int64_t>((uint64_t{ReadBE32(p)} << 32) | ReadBE32(p + 4));
}

}  // namespace

arrow::Result<TimeZone> TimeZone::FromTzif(std::string_view data, std::string_view name) {
  auto fail = [&](const char* what) {
    return arrow::Status::Invalid("time zone \"", name, "\": malformed TZif file (", what,
                                  ")");
  };
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  size_t size = data.size();
  constexpr size_t kHeader = 44;
  if (size < kHeader || data.substr(0, 4) != "TZif") return fail("bad header");
  const char version = data[4];
  auto counts = [&](const unsigned char* h, uint32_t c[6]) {
    for (int i = 0; i < 6; ++i) c[i] = ReadBE32(h + 20 + 4 * i);
  };
  uint32_t c[6];  // isutcnt, isstdcnt, leapcnt, timecnt, typecnt, charcnt
  counts(p, c);
  auto block_size = [&](const uint32_t k[6], size_t time_size) {
    return uint64_t{k[3]} * time_size + k[3] + uint64_t{k[4]} * 6 + k[5] +
           uint64_t{k[2]} * (time_size + 4) + k[1] + k[0];
  };
  size_t time_size = 4;
  size_t pos = kHeader;
  if (version >= '2') {
    const uint64_t skip = block_size(c, 4);
    if (pos + skip + kHeader > size) return fail("truncated");
    pos += static_cast<size_t>(skip);
    if (data.substr(pos, 4) != "TZif") return fail("bad second header");
    counts(p + pos, c);
    pos += kHeader;
    time_size = 8;
  }
  const uint64_t body = block_size(c, time_size);
  if (pos + body > size) return fail("truncated");
  if (c[4] == 0) return fail("no time types");
  const uint32_t timecnt = c[3], typecnt = c[4];
  const unsigned char* times = p + pos;
  const unsigned char* indices = times + size_t{timecnt} * time_size;
  const unsigned char* types = indices + timecnt;

  TimeZone tz;
  auto type_offset = [&](uint32_t i) {
    return static_cast<int32_t>(ReadBE32(types + 6 * size_t{i}));
  };
  // RFC 8536: local time before the first transition uses time type 0.
  tz.fixed_offset_ = type_offset(0);
  tz.transitions_.reserve(timecnt);
  tz.offsets_.reserve(timecnt);
  for (uint32_t i = 0; i < timecnt; ++i) {
    const int64_t t = time_size == 8
                          ? ReadBE64(times + 8 * size_t{i})
                          : static_cast<int32_t>(ReadBE32(times + 4 * size_t{i}));
    if (!tz.transitions_.empty() && t <= tz.transitions_.back()) {
      return fail("transitions out of order");
    }
    if (indices[i] >= typecnt) return fail("bad type index");
    tz.transitions_.push_back(t);
    tz.offsets_.push_back(type_offset(indices[i]));
  }
  if (version >= '2') {
    // Footer: "\n<POSIX TZ>\n" for instants after the last transition.
    size_t f = pos + static_cast<size_t>(body);
    if (f < size && data[f] == '\n') {
      const size_t close = data.find('\n', f + 1);
      if (close != std::string_view::npos && close > f + 1) {
        ARROW_ASSIGN_OR_RAISE(tz.rule_, ParsePosixTz(data.substr(f + 1, close - f - 1)));
        tz.has_rule_ = true;
      }
    }
  }
  return tz;
}

namespace {

// java.time.ZoneId.SHORT_IDS, which Spark applies to session zones and to zones in
// timestamp text (DateTimeUtils.getZoneId).
constexpr std::pair<std::string_view, std::string_view> kShortIds[] = {
    {"ACT", "Australia/Darwin"},
    {"AET", "Australia/Sydney"},
    {"AGT", "America/Argentina/Buenos_Aires"},
    {"ART", "Africa/Cairo"},
    {"AST", "America/Anchorage"},
    {"BET", "America/Sao_Paulo"},
    {"BST", "Asia/Dhaka"},
    {"CAT", "Africa/Harare"},
    {"CNT", "America/St_Johns"},
    {"CST", "America/Chicago"},
    {"CTT", "Asia/Shanghai"},
    {"EAT", "Africa/Addis_Ababa"},
    {"ECT", "Europe/Paris"},
    {"EST", "-05:00"},
    {"HST", "-10:00"},
    {"IET", "America/Indiana/Indianapolis"},
    {"IST", "Asia/Kolkata"},
    {"JST", "Asia/Tokyo"},
    {"MIT", "Pacific/Apia"},
    {"MST", "-07:00"},
    {"NET", "Asia/Yerevan"},
    {"NST", "Pacific/Auckland"},
    {"PLT", "Asia/Karachi"},
    {"PNT", "America/Phoenix"},
    {"PRT", "America/Puerto_Rico"},
    {"PST", "America/Los_Angeles"},
    {"SST", "Pacific/Guadalcanal"},
    {"VST", "Asia/Ho_Chi_Minh"},
};

}  // namespace

arrow::Result<TimeZone> TimeZone::Make(std::string_view name) {
  for (const auto& [id, zone] : kShortIds) {
    if (name == id) {
      name = zone;
      break;
    }
  }
  int32_t offset = 0;
  if (ParseZone(name, &offset)) return Fixed(offset);
  // An IANA name: letters, digits, '_', '-', '+', '/', and no path tricks.
  bool valid =
      !name.empty() && name[0] != '/' && name.find("..") == std::string_view::npos;
  for (char ch : name) {
    valid = valid && ((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
                      (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' || ch == '+' ||
                      ch == '/');
  }
  if (!valid) return arrow::Status::Invalid("unknown time zone \"", name, "\"");
  const char* dir = std::getenv("TZDIR");
  const std::string path =
      std::string(dir && *dir ? dir : "/usr/share/zoneinfo") + "/" + std::string(name);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return arrow::Status::Invalid("unknown time zone \"", name, "\" (no ", path, ")");
  }
  std::stringstream ss;
  ss << in.rdbuf();
  return FromTzif(ss.str(), name);
}

}  // namespace varshred::internal

namespace varshred {

TimeZone::TimeZone()
    : zone_(std::make_shared<internal::TimeZone>(internal::TimeZone::Fixed(0))) {}

arrow::Result<TimeZone> TimeZone::Make(std::string_view name) {
  TimeZone tz;
  if (name == "Etc/UTC" || name == "Etc/GMT" || name == "Z") return tz;
  int32_t offset = 0;
  if (internal::ParseZone(name, &offset)) {
    tz.zone_ = std::make_shared<internal::TimeZone>(internal::TimeZone::Fixed(offset));
    return tz;
  }
  // Region zones are read from the tz database once per process: timestamp text may
  // name one in every row.
  static std::mutex mutex;
  static std::map<std::string, std::shared_ptr<const internal::TimeZone>, std::less<>>
      loaded;
  std::lock_guard<std::mutex> lock(mutex);
  if (auto it = loaded.find(name); it != loaded.end()) {
    tz.zone_ = it->second;
    return tz;
  }
  auto zone = internal::TimeZone::Make(name);
  if (!zone.ok()) {
    return arrow::Status::Invalid("time zone '", name, "': ", zone.status().message());
  }
  tz.zone_ = std::make_shared<internal::TimeZone>(std::move(zone).ValueOrDie());
  loaded.emplace(std::string(name), tz.zone_);
  return tz;
}

int32_t TimeZone::OffsetAt(int64_t utc_seconds) const {
  return zone_->OffsetAt(utc_seconds);
}

std::optional<int64_t> TimeZone::ToLocalMicros(int64_t utc_micros) const {
  const int64_t shift =
      int64_t{OffsetAt(internal::FloorDiv(utc_micros, internal::kMicrosPerSecond))} *
      internal::kMicrosPerSecond;
  int64_t local;
  if (__builtin_add_overflow(utc_micros, shift, &local)) return std::nullopt;
  return local;
}

std::optional<int64_t> TimeZone::ToUtcMicros(int64_t local_micros) const {
  return ToUtcMicros(
      internal::FloorDiv(local_micros, internal::kMicrosPerSecond),
      static_cast<int32_t>(internal::FloorMod(local_micros, internal::kMicrosPerSecond)));
}

std::optional<int64_t> TimeZone::ToUtcMicros(int64_t local, int32_t micros) const {
  // Offsets stay within +-18 h, so the instants of `local` lie within 18 h of it and
  // at most one transition matters: the offsets before and after that window.
  constexpr int64_t kWindow = 18 * 3600;
  const int32_t before = OffsetAt(local - kWindow);
  const int32_t after = OffsetAt(local + kWindow);
  int32_t offset = before;  // normal time, overlap (earlier offset), or gap (shift later)
  if (before != after && OffsetAt(local - before) != before &&
      OffsetAt(local - after) == after) {
    offset = after;
  }
  // 128 bits: the second of the first representable instant starts before it.
  const int128_t utc = int128_t{local - offset} * internal::kMicrosPerSecond + micros;
  if (utc < std::numeric_limits<int64_t>::min() ||
      utc > std::numeric_limits<int64_t>::max()) {
    return std::nullopt;
  }
  return static_cast<int64_t>(utc);
}

}  // namespace varshred
