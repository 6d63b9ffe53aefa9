/*===- helia-traffic.c - Memory traffic of a firmware run, by address range ===
 *
 * A TCG plugin for qemu-system-arm (7.2, plugin API version 1) that counts
 * the loads and stores of a run, in bytes and in accesses, by address range:
 * per memory, per arena, per slot of an arena and per other named area (the
 * image's code, data, bss, stack). Optionally only between two instruction
 * addresses (a function the firmware calls before the inference and one it
 * calls after it). Writes the counts as JSON when QEMU exits.
 *
 *   qemu-system-arm ... -plugin helia-traffic.so,ranges=<file>,out=<json>,
 *                               start=<addr>,stop=<addr>
 *
 * Arguments (docs/Placement.md, "Measuring traffic"):
 *   ranges=<file>   ranges, one a line: `<level> <begin> <end> <name>`
 *   range=<level>:<begin>:<end>:<name>   one range (repeatable)
 *   out=<file>      where the JSON goes (default: stderr)
 *   start=<addr>    counting starts when the instruction at <addr> executes
 *   stop=<addr>     and stops when the one at <addr> executes
 *
 * Levels: `memory` (disjoint), `arena` (disjoint, each inside a memory),
 * `slot` (inside an arena; slots may share bytes), `area` (a named part of a
 * memory outside every arena). Addresses are decimal or 0x-hexadecimal;
 * `end` is one past the last byte. Bit 0 of start and stop (the Thumb bit of
 * a function symbol) is ignored.
 *
 * Instruction fetches are not counted, only the loads and stores that
 * instructions make, as QEMU reports them: an MVE vector load or store is one
 * access per element, an ldrd or ldm one per word. Every byte of an access
 * is attributed to the range it falls in; the access itself counts where its
 * first byte is.
 *
 *===----------------------------------------------------------------------===*/

#include "qemu-plugin-api.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

HELIA_QEMU_PLUGIN_EXPORT int qemu_plugin_version =
    HELIA_QEMU_PLUGIN_API_VERSION;

enum Level { LEVEL_MEMORY, LEVEL_ARENA, LEVEL_SLOT, LEVEL_AREA, LEVEL_COUNT };
static const char *const levelNames[LEVEL_COUNT] = {"memory", "arena", "slot",
                                                    "area"};

typedef struct {
  uint64_t reads, writes, readBytes, writeBytes;
} Counts;

typedef struct {
  enum Level level;
  uint64_t begin, end;
  char *name;
  int parent; /* the memory of an arena or area, the arena of a slot */
  Counts counts;
  Counts outside; /* a memory's accesses outside its arenas */
} Range;

/* An elementary interval between two consecutive range boundaries: every
   address in it belongs to the same ranges, so an access updates one
   segment's counters and the ranges are summed at exit. */
typedef struct {
  uint64_t begin, end;
  int memory, arena, area;
  size_t firstSlot, slotCount; /* into segmentSlots */
  Counts counts;
} Segment;

static Range *ranges;
static size_t rangeCount, rangeCapacity;
static Segment *segments;
static size_t segmentCount;
static int *segmentSlots;
static Counts unmapped, total;
static size_t lastSegment;

static char *outPath;
static uint64_t startAddr, stopAddr;
static bool haveStart, haveStop;
static bool counting = true;
static uint64_t windows;

/* QEMU refuses to start when installation fails; say why on stderr. */
__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...) {
  va_list args;
  va_start(args, fmt);
  fputs("helia-traffic: error: ", stderr);
  vfprintf(stderr, fmt, args);
  fputc('\n', stderr);
  va_end(args);
}

static bool parseAddress(const char *text, uint64_t *value) {
  char *end;
  errno = 0;
  unsigned long long v = strtoull(text, &end, 0);
  if (errno || end == text || *end || text[0] == '-')
    return false;
  *value = v;
  return true;
}

static bool addRange(const char *levelText, const char *beginText,
                     const char *endText, const char *name, const char *where) {
  int level = -1;
  for (int i = 0; i < LEVEL_COUNT; ++i)
    if (!strcmp(levelText, levelNames[i]))
      level = i;
  if (level < 0) {
    fail("%s: unknown level '%s' (memory, arena, slot or area)", where,
         levelText);
    return false;
  }
  Range r = {.level = (enum Level)level, .parent = -1};
  if (!parseAddress(beginText, &r.begin) || !parseAddress(endText, &r.end) ||
      r.end <= r.begin) {
    fail("%s: '%s' is not a range <begin> <end> with begin < end", where, name);
    return false;
  }
  if (!*name) {
    fail("%s: a range needs a name", where);
    return false;
  }
  r.name = strdup(name);
  if (rangeCount == rangeCapacity) {
    rangeCapacity = rangeCapacity ? 2 * rangeCapacity : 64;
    ranges = realloc(ranges, rangeCapacity * sizeof *ranges);
  }
  ranges[rangeCount++] = r;
  return true;
}

/* `<level>:<begin>:<end>:<name>` (the name may contain ':'). */
static bool addRangeArgument(const char *text) {
  char *copy = strdup(text);
  char *fields[3];
  char *p = copy;
  for (int i = 0; i < 3; ++i) {
    fields[i] = p;
    p = strchr(p, ':');
    if (!p) {
      fail("range=%s: expected <level>:<begin>:<end>:<name>", text);
      free(copy);
      return false;
    }
    *p++ = 0;
  }
  bool ok = addRange(fields[0], fields[1], fields[2], p, "range=");
  free(copy);
  return ok;
}

static bool readRangesFile(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    fail("cannot read ranges file '%s': %s", path, strerror(errno));
    return false;
  }
  char line[4096];
  char where[64];
  unsigned lineNo = 0;
  bool ok = true;
  while (ok && fgets(line, sizeof line, f)) {
    ++lineNo;
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
      line[--n] = 0;
    char *p = line;
    while (*p == ' ' || *p == '\t')
      ++p;
    if (!*p || *p == '#')
      continue;
    char *fields[3];
    for (int i = 0; i < 3 && ok; ++i) {
      fields[i] = p;
      while (*p && *p != ' ' && *p != '\t')
        ++p;
      if (!*p) {
        snprintf(where, sizeof where, "line %u", lineNo);
        fail("%s of %s: expected <level> <begin> <end> <name>", where, path);
        ok = false;
        break;
      }
      *p++ = 0;
      while (*p == ' ' || *p == '\t')
        ++p;
    }
    if (!ok)
      break;
    snprintf(where, sizeof where, "%s:%u", path, lineNo);
    ok = addRange(fields[0], fields[1], fields[2], p, where);
  }
  fclose(f);
  return ok;
}

static bool contains(const Range *outer, const Range *inner) {
  return outer->begin <= inner->begin && inner->end <= outer->end;
}

static bool overlaps(const Range *a, const Range *b) {
  return a->begin < b->end && b->begin < a->end;
}

/* The parent of every arena, area and slot; memories and arenas disjoint. */
static bool linkRanges(void) {
  for (size_t i = 0; i < rangeCount; ++i) {
    Range *r = &ranges[i];
    enum Level parentLevel =
        r->level == LEVEL_SLOT ? LEVEL_ARENA : LEVEL_MEMORY;
    for (size_t j = 0; j < rangeCount; ++j) {
      const Range *o = &ranges[j];
      if (j != i && o->level == r->level && r->level != LEVEL_SLOT &&
          overlaps(o, r)) {
        fail("%s ranges must not overlap: '%s' and '%s'", levelNames[r->level],
             r->name, o->name);
        return false;
      }
      if (r->level != LEVEL_MEMORY && o->level == parentLevel && contains(o, r))
        r->parent = (int)j;
    }
    if (r->level != LEVEL_MEMORY && r->parent < 0) {
      fail("'%s' lies in no %s range", r->name, levelNames[parentLevel]);
      return false;
    }
    if (r->level == LEVEL_AREA)
      for (size_t j = 0; j < rangeCount; ++j)
        if (ranges[j].level == LEVEL_ARENA && overlaps(&ranges[j], r)) {
          fail("area '%s' overlaps arena '%s'", r->name, ranges[j].name);
          return false;
        }
  }
  return true;
}

static int compareU64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return x < y ? -1 : x > y;
}

static void buildSegments(void) {
  uint64_t *bounds = malloc((2 * rangeCount + 1) * sizeof *bounds);
  size_t n = 0;
  for (size_t i = 0; i < rangeCount; ++i) {
    bounds[n++] = ranges[i].begin;
    bounds[n++] = ranges[i].end;
  }
  qsort(bounds, n, sizeof *bounds, compareU64);
  size_t unique = 0;
  for (size_t i = 0; i < n; ++i)
    if (!unique || bounds[unique - 1] != bounds[i])
      bounds[unique++] = bounds[i];
  segments = calloc(unique ? unique : 1, sizeof *segments);
  size_t slotRefs = 0, slotCapacity = 64;
  segmentSlots = malloc(slotCapacity * sizeof *segmentSlots);
  for (size_t i = 0; i + 1 < unique; ++i) {
    Segment s = {.begin = bounds[i],
                 .end = bounds[i + 1],
                 .memory = -1,
                 .arena = -1,
                 .area = -1,
                 .firstSlot = slotRefs};
    for (size_t j = 0; j < rangeCount; ++j) {
      const Range *r = &ranges[j];
      if (r->begin > s.begin || s.end > r->end)
        continue;
      switch (r->level) {
      case LEVEL_MEMORY:
        s.memory = (int)j;
        break;
      case LEVEL_ARENA:
        s.arena = (int)j;
        break;
      case LEVEL_AREA:
        s.area = (int)j;
        break;
      case LEVEL_SLOT:
        if (slotRefs == slotCapacity) {
          slotCapacity *= 2;
          segmentSlots =
              realloc(segmentSlots, slotCapacity * sizeof *segmentSlots);
        }
        segmentSlots[slotRefs++] = (int)j;
        ++s.slotCount;
        break;
      case LEVEL_COUNT:
        break;
      }
    }
    if (s.memory >= 0)
      segments[segmentCount++] = s;
    else
      slotRefs = s.firstSlot;
  }
  free(bounds);
}

/* The first segment that ends after addr (segmentCount if none). */
static size_t findSegment(uint64_t addr) {
  if (lastSegment < segmentCount && segments[lastSegment].begin <= addr &&
      addr < segments[lastSegment].end)
    return lastSegment;
  size_t lo = 0, hi = segmentCount;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (segments[mid].end <= addr)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < segmentCount && segments[lo].begin <= addr)
    lastSegment = lo;
  return lo;
}

static void add(Counts *c, bool store, bool first, uint64_t bytes) {
  if (store) {
    c->writes += first;
    c->writeBytes += bytes;
  } else {
    c->reads += first;
    c->readBytes += bytes;
  }
}

static void onAccess(unsigned int vcpu, qemu_plugin_meminfo_t info,
                     uint64_t vaddr, void *userdata) {
  (void)vcpu;
  (void)userdata;
  if (!counting)
    return;
  bool store = qemu_plugin_mem_is_store(info);
  uint64_t size = 1ull << qemu_plugin_mem_size_shift(info);
  add(&total, store, true, size);
  bool first = true;
  uint64_t addr = vaddr;
  while (size) {
    size_t i = findSegment(addr);
    Segment *s = i < segmentCount ? &segments[i] : NULL;
    uint64_t part = size;
    if (!s || s->begin > addr) {
      /* Unmapped up to the next segment, if the access reaches one. */
      if (s && s->begin - addr < part)
        part = s->begin - addr;
      add(&unmapped, store, first, part);
    } else {
      if (s->end - addr < part)
        part = s->end - addr;
      add(&s->counts, store, first, part);
    }
    first = false;
    addr += part;
    size -= part;
  }
}

static void onStart(unsigned int vcpu, void *userdata) {
  (void)vcpu;
  (void)userdata;
  if (!counting)
    ++windows;
  counting = true;
}

static void onStop(unsigned int vcpu, void *userdata) {
  (void)vcpu;
  (void)userdata;
  counting = false;
}

static void onTranslate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb) {
  (void)id;
  size_t n = qemu_plugin_tb_n_insns(tb);
  for (size_t i = 0; i < n; ++i) {
    struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
    uint64_t pc = qemu_plugin_insn_vaddr(insn);
    if (haveStart && pc == startAddr)
      qemu_plugin_register_vcpu_insn_exec_cb(insn, onStart,
                                             QEMU_PLUGIN_CB_NO_REGS, NULL);
    if (haveStop && pc == stopAddr)
      qemu_plugin_register_vcpu_insn_exec_cb(insn, onStop,
                                             QEMU_PLUGIN_CB_NO_REGS, NULL);
    qemu_plugin_register_vcpu_mem_cb(insn, onAccess, QEMU_PLUGIN_CB_NO_REGS,
                                     QEMU_PLUGIN_MEM_RW, NULL);
  }
}

static void sum(Counts *into, const Counts *c) {
  into->reads += c->reads;
  into->writes += c->writes;
  into->readBytes += c->readBytes;
  into->writeBytes += c->writeBytes;
}

static void writeString(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; ++s) {
    unsigned char c = (unsigned char)*s;
    if (c == '"' || c == '\\')
      fprintf(f, "\\%c", c);
    else if (c < 0x20)
      fprintf(f, "\\u%04x", c);
    else
      fputc(c, f);
  }
  fputc('"', f);
}

static void writeCounts(FILE *f, const Counts *c) {
  fprintf(f,
          "\"read_bytes\": %" PRIu64 ", \"write_bytes\": %" PRIu64
          ", \"reads\": %" PRIu64 ", \"writes\": %" PRIu64,
          c->readBytes, c->writeBytes, c->reads, c->writes);
}

static void writeRangeHead(FILE *f, const Range *r) {
  fputs("{\"name\": ", f);
  writeString(f, r->name);
  if (r->parent >= 0) {
    fprintf(f, ", \"%s\": ", r->level == LEVEL_SLOT ? "arena" : "memory");
    writeString(f, ranges[r->parent].name);
  }
  fprintf(f, ", \"begin\": %" PRIu64 ", \"end\": %" PRIu64 ", ", r->begin,
          r->end);
}

static void writeReport(qemu_plugin_id_t id, void *userdata) {
  (void)id;
  (void)userdata;
  for (size_t i = 0; i < segmentCount; ++i) {
    const Segment *s = &segments[i];
    sum(&ranges[s->memory].counts, &s->counts);
    if (s->arena >= 0)
      sum(&ranges[s->arena].counts, &s->counts);
    else
      sum(&ranges[s->memory].outside, &s->counts);
    if (s->area >= 0)
      sum(&ranges[s->area].counts, &s->counts);
    for (size_t k = 0; k < s->slotCount; ++k)
      sum(&ranges[segmentSlots[s->firstSlot + k]].counts, &s->counts);
  }
  FILE *f = stderr;
  if (outPath && !(f = fopen(outPath, "w"))) {
    fail("cannot write '%s': %s", outPath, strerror(errno));
    return;
  }
  fputs("{\n  \"counted\": ", f);
  if (haveStart) {
    fprintf(f, "{\"start\": %" PRIu64 ", \"stop\": ", startAddr);
    if (haveStop)
      fprintf(f, "%" PRIu64, stopAddr);
    else
      fputs("null", f);
    fprintf(f, ", \"windows\": %" PRIu64 "}", windows);
  } else
    fputs("\"the whole run\"", f);
  fputs(",\n  \"total\": {", f);
  writeCounts(f, &total);
  fputs("},\n  \"unmapped\": {", f);
  writeCounts(f, &unmapped);
  fputs("},\n  \"memories\": [", f);
  const char *sep = "\n    ";
  for (size_t i = 0; i < rangeCount; ++i) {
    const Range *r = &ranges[i];
    if (r->level != LEVEL_MEMORY)
      continue;
    fputs(sep, f);
    writeRangeHead(f, r);
    writeCounts(f, &r->counts);
    fputs(", \"outside_arenas\": {", f);
    writeCounts(f, &r->outside);
    fputs("}}", f);
    sep = ",\n    ";
  }
  fputs("\n  ],\n  \"arenas\": [", f);
  sep = "\n    ";
  for (size_t i = 0; i < rangeCount; ++i) {
    const Range *r = &ranges[i];
    if (r->level != LEVEL_ARENA)
      continue;
    fputs(sep, f);
    writeRangeHead(f, r);
    writeCounts(f, &r->counts);
    fputs(", \"slots\": [", f);
    const char *slotSep = "\n      ";
    for (size_t j = 0; j < rangeCount; ++j) {
      const Range *s = &ranges[j];
      if (s->level != LEVEL_SLOT || s->parent != (int)i)
        continue;
      fputs(slotSep, f);
      fputs("{\"name\": ", f);
      writeString(f, s->name);
      fprintf(f, ", \"offset\": %" PRIu64 ", \"size\": %" PRIu64 ", ",
              s->begin - r->begin, s->end - s->begin);
      writeCounts(f, &s->counts);
      fputc('}', f);
      slotSep = ",\n      ";
    }
    fputs("]}", f);
    sep = ",\n    ";
  }
  fputs("\n  ],\n  \"other\": [", f);
  sep = "\n    ";
  for (size_t i = 0; i < rangeCount; ++i) {
    const Range *r = &ranges[i];
    if (r->level != LEVEL_AREA)
      continue;
    fputs(sep, f);
    writeRangeHead(f, r);
    writeCounts(f, &r->counts);
    fputc('}', f);
    sep = ",\n    ";
  }
  fputs("\n  ]\n}\n", f);
  if (f != stderr)
    fclose(f);
}

HELIA_QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id,
                                                 const qemu_info_t *info,
                                                 int argc, char **argv) {
  if (!info->system_emulation) {
    fail("counts the traffic of system emulation only (qemu-system-*), not "
         "of user-mode QEMU");
    return 1;
  }
  for (int i = 0; i < argc; ++i) {
    const char *arg = argv[i];
    const char *eq = strchr(arg, '=');
    if (!eq) {
      fail("argument '%s' is not <key>=<value>", arg);
      return 1;
    }
    size_t keyLen = (size_t)(eq - arg);
    const char *value = eq + 1;
    if (keyLen == 6 && !strncmp(arg, "ranges", 6)) {
      if (!readRangesFile(value))
        return 1;
    } else if (keyLen == 5 && !strncmp(arg, "range", 5)) {
      if (!addRangeArgument(value))
        return 1;
    } else if (keyLen == 3 && !strncmp(arg, "out", 3)) {
      outPath = strdup(value);
    } else if (keyLen == 5 && !strncmp(arg, "start", 5)) {
      if (!parseAddress(value, &startAddr)) {
        fail("start=%s is not an address", value);
        return 1;
      }
      startAddr &= ~(uint64_t)1;
      haveStart = true;
    } else if (keyLen == 4 && !strncmp(arg, "stop", 4)) {
      if (!parseAddress(value, &stopAddr)) {
        fail("stop=%s is not an address", value);
        return 1;
      }
      stopAddr &= ~(uint64_t)1;
      haveStop = true;
    } else {
      fail("unknown argument '%s' (ranges=, range=, out=, start=, stop=)", arg);
      return 1;
    }
  }
  if (haveStop && !haveStart) {
    fail("stop= needs start=");
    return 1;
  }
  if (!linkRanges())
    return 1;
  buildSegments();
  counting = !haveStart;
  qemu_plugin_register_vcpu_tb_trans_cb(id, onTranslate);
  qemu_plugin_register_atexit_cb(id, writeReport, NULL);
  return 0;
}
