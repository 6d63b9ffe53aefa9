//===- NumPy.cpp - NumPy .npy and .npz files ------------------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The .npy format is NumPy's `numpy.lib.format` (a magic string, a version,
// a Python dict literal with `descr`, `fortran_order` and `shape`, then the
// raw elements); an .npz is a zip archive of such files (PKWARE's APPNOTE:
// local headers, a central directory, the end-of-central-directory record
// and its zip64 forms). Every length read from the file is checked against
// the bytes that are there before it is used.
//
//===----------------------------------------------------------------------===//

#include "helia/Support/NumPy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <optional>

#if HELIA_HAVE_ZLIB
#include <zlib.h>
#endif

using namespace helia::numpy;
using llvm::StringRef;

static llvm::Error error(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

std::string DType::descr() const {
  return (llvm::Twine(bytes == 1 ? '|' : '<') + llvm::Twine(kind) +
          llvm::Twine(bytes))
      .str();
}

std::string DType::name() const {
  switch (kind) {
  case 'b':
    return "bool";
  case 'i':
    return "int" + std::to_string(bytes * 8);
  case 'u':
    return "uint" + std::to_string(bytes * 8);
  default:
    return "float" + std::to_string(bytes * 8);
  }
}

int64_t Array::numElements() const {
  int64_t count = 1;
  for (int64_t dim : shape)
    count *= dim;
  return count;
}

//===----------------------------------------------------------------------===//
// .npy
//===----------------------------------------------------------------------===//

namespace {
/// A cursor over the header's Python dict literal.
class HeaderLexer {
public:
  explicit HeaderLexer(StringRef text) : text(text) {}

  void skipSpace() { text = text.ltrim(" \t\r\n"); }
  bool consume(char c) {
    skipSpace();
    if (!text.consume_front(StringRef(&c, 1)))
      return false;
    return true;
  }
  bool consume(StringRef word) {
    skipSpace();
    return text.consume_front(word);
  }
  /// A '...' or "..." literal without escapes (NumPy writes none).
  std::optional<std::string> string() {
    skipSpace();
    if (text.empty() || (text.front() != '\'' && text.front() != '"'))
      return std::nullopt;
    char quote = text.front();
    size_t end = text.find(quote, 1);
    if (end == StringRef::npos || text.substr(1, end - 1).contains('\\'))
      return std::nullopt;
    std::string value = text.substr(1, end - 1).str();
    text = text.drop_front(end + 1);
    return value;
  }
  /// A non-negative decimal integer below 2^62 (Python may append `L`).
  std::optional<int64_t> integer() {
    skipSpace();
    size_t digits = 0;
    while (digits < text.size() && llvm::isDigit(text[digits]))
      ++digits;
    uint64_t value;
    if (digits == 0 || digits > 18 ||
        text.substr(0, digits).getAsInteger(10, value))
      return std::nullopt;
    text = text.drop_front(digits);
    text.consume_front("L");
    return static_cast<int64_t>(value);
  }
  StringRef rest() const { return text; }

private:
  StringRef text;
};
} // namespace

/// The dtype of a `descr` string; sets `swap` for big-endian elements.
static llvm::Expected<DType> parseDescr(StringRef descr, bool &swap) {
  StringRef rest = descr;
  char order = '=';
  if (!rest.empty() && StringRef("<>|=").contains(rest.front())) {
    order = rest.front();
    rest = rest.drop_front();
  }
  unsigned bytes = 0;
  if (rest.size() < 2 || rest.drop_front().getAsInteger(10, bytes))
    return error("dtype '" + descr + "' is not a numeric NumPy type");
  DType dtype{rest.front(), bytes};
  bool known = false;
  switch (dtype.kind) {
  case 'b':
    known = bytes == 1;
    break;
  case 'i':
  case 'u':
    known = bytes == 1 || bytes == 2 || bytes == 4 || bytes == 8;
    break;
  case 'f':
    known = bytes == 2 || bytes == 4 || bytes == 8;
    break;
  default:
    break;
  }
  if (!known)
    return error("dtype '" + descr +
                 "' is not a bool, integer or float type (only b1, i1-i8, "
                 "u1-u8, f2, f4 and f8 are read)");
  swap = order == '>' && bytes > 1;
  return dtype;
}

llvm::Expected<Array> helia::numpy::parseNpy(StringRef bytes, StringRef name) {
  auto fail = [&](const llvm::Twine &what) {
    return error("array '" + name + "': " + what);
  };
  if (!bytes.starts_with("\x93NUMPY"))
    return fail("not an .npy file (no \\x93NUMPY magic)");
  if (bytes.size() < 10)
    return fail("truncated .npy header");
  unsigned major = static_cast<uint8_t>(bytes[6]);
  size_t headerLength, headerStart;
  if (major == 1) {
    headerLength = llvm::support::endian::read16le(bytes.data() + 8);
    headerStart = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12)
      return fail("truncated .npy header");
    headerLength = llvm::support::endian::read32le(bytes.data() + 8);
    headerStart = 12;
  } else {
    return fail("unsupported .npy format version " + llvm::Twine(major) +
                "." + llvm::Twine(static_cast<unsigned>(
                          static_cast<uint8_t>(bytes[7]))));
  }
  if (headerLength > bytes.size() - headerStart)
    return fail("the .npy header runs past the end of the file");
  StringRef header = bytes.substr(headerStart, headerLength);
  StringRef payload = bytes.drop_front(headerStart + headerLength);

  // {'descr': '<i1', 'fortran_order': False, 'shape': (3, 4), }
  HeaderLexer lex(header);
  std::optional<std::string> descr;
  std::optional<bool> fortran;
  std::optional<llvm::SmallVector<int64_t>> shape;
  auto malformed = [&](const llvm::Twine &what) {
    return fail("malformed .npy header (" + what + "): '" + header.rtrim() +
                "'");
  };
  if (!lex.consume('{'))
    return malformed("not a dict");
  while (!lex.consume('}')) {
    std::optional<std::string> key = lex.string();
    if (!key)
      return malformed("expected a quoted key");
    if (!lex.consume(':'))
      return malformed("expected ':' after '" + *key + "'");
    if (*key == "descr" && !descr) {
      descr = lex.string();
      if (!descr)
        return malformed("'descr' is not a string (a structured dtype?)");
    } else if (*key == "fortran_order" && !fortran) {
      if (lex.consume("True"))
        fortran = true;
      else if (lex.consume("False"))
        fortran = false;
      else
        return malformed("'fortran_order' is neither True nor False");
    } else if (*key == "shape" && !shape) {
      if (!lex.consume('('))
        return malformed("'shape' is not a tuple");
      shape.emplace();
      while (!lex.consume(')')) {
        std::optional<int64_t> dim = lex.integer();
        if (!dim)
          return malformed("'shape' holds something other than a "
                           "non-negative integer");
        shape->push_back(*dim);
        if (!lex.consume(',') && !lex.rest().ltrim().starts_with(")"))
          return malformed("expected ',' or ')' in 'shape'");
      }
    } else {
      return malformed("unexpected or repeated key '" + *key + "'");
    }
    if (!lex.consume(',') && !lex.rest().ltrim().starts_with("}"))
      return malformed("expected ',' or '}'");
  }
  if (!descr || !fortran || !shape)
    return malformed("it needs 'descr', 'fortran_order' and 'shape'");
  if (*fortran)
    return fail("is stored in Fortran order; save "
                "np.ascontiguousarray(a) instead");

  bool swap = false;
  llvm::Expected<DType> dtype = parseDescr(*descr, swap);
  if (!dtype)
    return fail(llvm::toString(dtype.takeError()));

  Array array;
  array.name = name.str();
  array.dtype = *dtype;
  array.shape = std::move(*shape);
  // The element count, without overflow: the data must hold it exactly.
  uint64_t expected = array.dtype.bytes;
  for (int64_t dim : array.shape)
    if (__builtin_mul_overflow(expected, static_cast<uint64_t>(dim),
                               &expected))
      return fail("its shape has more elements than fit in memory");
  if (payload.size() != expected)
    return fail(llvm::formatv("its shape and dtype ({0} x {1}) need {2} "
                              "bytes of data, the file has {3}",
                              array.numElements(), array.dtype.name(),
                              expected, payload.size())
                    .str());
  array.data.assign(payload.bytes_begin(), payload.bytes_end());
  if (swap)
    for (size_t i = 0; i < array.data.size(); i += array.dtype.bytes)
      std::reverse(array.data.begin() + i,
                   array.data.begin() + i + array.dtype.bytes);
  return array;
}

std::string helia::numpy::writeNpy(const Array &array) {
  std::string header = "{'descr': '" + array.dtype.descr() +
                       "', 'fortran_order': False, 'shape': (";
  for (int64_t dim : array.shape)
    header += std::to_string(dim) + (array.shape.size() == 1 ? "," : ", ");
  if (array.shape.size() > 1)
    header.resize(header.size() - 2);
  header += "), }";
  // NumPy pads the header with spaces and a newline to a multiple of 64.
  size_t total = 10 + header.size() + 1;
  header.append((64 - total % 64) % 64, ' ');
  header += '\n';
  std::string out = "\x93NUMPY\x01";
  out += '\0';
  out += static_cast<char>(header.size() & 0xff);
  out += static_cast<char>(header.size() >> 8);
  out += header;
  out.append(array.data.begin(), array.data.end());
  return out;
}

//===----------------------------------------------------------------------===//
// .npz (zip)
//===----------------------------------------------------------------------===//

bool helia::numpy::canInflate() { return HELIA_HAVE_ZLIB; }

namespace {
/// Little-endian reads at checked offsets of the archive.
class Reader {
public:
  explicit Reader(StringRef bytes) : bytes(bytes) {}
  bool has(uint64_t offset, uint64_t size) const {
    return offset <= bytes.size() && size <= bytes.size() - offset;
  }
  uint16_t u16(uint64_t at) const {
    return llvm::support::endian::read16le(bytes.data() + at);
  }
  uint32_t u32(uint64_t at) const {
    return llvm::support::endian::read32le(bytes.data() + at);
  }
  uint64_t u64(uint64_t at) const {
    return llvm::support::endian::read64le(bytes.data() + at);
  }
  StringRef slice(uint64_t at, uint64_t size) const {
    return bytes.substr(at, size);
  }
  StringRef bytes;
};

/// One member, from its central-directory entry.
struct Member {
  std::string name;
  uint16_t flags = 0, method = 0;
  uint32_t crc = 0;
  uint64_t compressedSize = 0, size = 0, localOffset = 0;
};
} // namespace

/// Inflates the raw deflate stream `in` into exactly `size` bytes.
static llvm::Error inflate(StringRef in, uint64_t size,
                           std::vector<uint8_t> &out) {
#if HELIA_HAVE_ZLIB
  if (size > UINT32_MAX || in.size() > UINT32_MAX)
    return error("is larger than 4 GiB");
  // zlib refuses a null output buffer, even for no bytes.
  out.assign(std::max<uint64_t>(size, 1), 0);
  z_stream stream{};
  if (inflateInit2(&stream, -MAX_WBITS) != Z_OK)
    return error("zlib cannot start inflating");
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(in.data()));
  stream.avail_in = static_cast<uInt>(in.size());
  stream.next_out = out.data();
  stream.avail_out = static_cast<uInt>(size);
  int status = ::inflate(&stream, Z_FINISH);
  uint64_t produced = stream.total_out;
  inflateEnd(&stream);
  out.resize(size);
  if (status != Z_STREAM_END)
    return error(status == Z_BUF_ERROR && produced == size
                     ? llvm::Twine("its deflated data is longer than the "
                                   "size the archive records")
                     : "its deflated data is corrupt");
  if (produced != size)
    return error("its deflated data holds " + llvm::Twine(produced) +
                 " bytes, the archive records " + llvm::Twine(size));
  return llvm::Error::success();
#else
  (void)in;
  (void)size;
  (void)out;
  return error("is deflated (np.savez_compressed), and this helia was built "
               "without zlib; save it with np.savez");
#endif
}

/// Reads the zip64 extended-information fields that the 32-bit entry marks
/// with 0xFFFFFFFF, in their fixed order.
static llvm::Error readZip64Extra(StringRef extra, Member &member,
                                  bool sizeMarked, bool compressedMarked,
                                  bool offsetMarked) {
  while (extra.size() >= 4) {
    uint16_t id = llvm::support::endian::read16le(extra.data());
    uint16_t length = llvm::support::endian::read16le(extra.data() + 2);
    if (length > extra.size() - 4)
      return error("an extra field runs past its entry");
    StringRef field = extra.substr(4, length);
    extra = extra.drop_front(4 + length);
    if (id != 1)
      continue;
    auto take = [&](uint64_t &value) -> bool {
      if (field.size() < 8)
        return false;
      value = llvm::support::endian::read64le(field.data());
      field = field.drop_front(8);
      return true;
    };
    if ((sizeMarked && !take(member.size)) ||
        (compressedMarked && !take(member.compressedSize)) ||
        (offsetMarked && !take(member.localOffset)))
      return error("its zip64 extra field is too short");
    return llvm::Error::success();
  }
  if (sizeMarked || compressedMarked || offsetMarked)
    return error("its sizes need a zip64 extra field, which is missing");
  return llvm::Error::success();
}

llvm::Expected<std::vector<Array>> helia::numpy::parseNpz(StringRef bytes) {
  Reader r(bytes);
  if (bytes.starts_with("\x93NUMPY"))
    return error("is an .npy file, not an .npz archive; save the arrays with "
                 "np.savez(path, input_0=..., output_0=...)");
  // The end-of-central-directory record: 22 bytes and a comment of up to
  // 64 KiB at the end.
  constexpr uint64_t kEocd = 22;
  if (bytes.size() < kEocd)
    return error("is not a zip archive (too short)");
  std::optional<uint64_t> eocd;
  uint64_t lowest = bytes.size() > kEocd + 0xffff ? bytes.size() - kEocd - 0xffff
                                                 : 0;
  for (uint64_t at = bytes.size() - kEocd + 1; at-- > lowest;)
    if (r.u32(at) == 0x06054b50) {
      eocd = at;
      break;
    }
  if (!eocd)
    return error("is not a zip archive (no end of central directory record)");
  if (r.u16(*eocd + 4) != 0 || r.u16(*eocd + 6) != 0)
    return error("is a multi-part zip archive, which is not supported");
  uint64_t entries = r.u16(*eocd + 10);
  uint64_t directorySize = r.u32(*eocd + 12);
  uint64_t directoryOffset = r.u32(*eocd + 16);
  if (entries == 0xffff || directorySize == 0xffffffff ||
      directoryOffset == 0xffffffff) {
    // zip64: a locator right before the record points at the zip64 record.
    if (*eocd < 20 || r.u32(*eocd - 20) != 0x07064b50)
      return error("its zip64 end of central directory locator is missing");
    uint64_t record = r.u64(*eocd - 20 + 8);
    if (!r.has(record, 56) || r.u32(record) != 0x06064b50)
      return error("its zip64 end of central directory record is missing");
    entries = r.u64(record + 32);
    directorySize = r.u64(record + 40);
    directoryOffset = r.u64(record + 48);
  }
  if (!r.has(directoryOffset, directorySize))
    return error("its central directory lies outside the file");

  std::vector<Array> arrays;
  llvm::StringSet<> names;
  uint64_t at = directoryOffset, end = directoryOffset + directorySize;
  for (uint64_t index = 0; index < entries; ++index) {
    if (at > end || end - at < 46 || r.u32(at) != 0x02014b50)
      return error("central directory entry " + llvm::Twine(index) +
                   " is malformed");
    Member member;
    member.flags = r.u16(at + 8);
    member.method = r.u16(at + 10);
    member.crc = r.u32(at + 16);
    member.compressedSize = r.u32(at + 20);
    member.size = r.u32(at + 24);
    uint64_t nameLength = r.u16(at + 28), extraLength = r.u16(at + 30),
             commentLength = r.u16(at + 32);
    member.localOffset = r.u32(at + 42);
    if (end - at - 46 < nameLength + extraLength + commentLength)
      return error("central directory entry " + llvm::Twine(index) +
                   " runs past the directory");
    member.name = r.slice(at + 46, nameLength).str();
    std::string what = "member '" + member.name + "'";
    auto fail = [&](const llvm::Twine &message) {
      return error(what + ": " + message);
    };
    if (llvm::Error e = readZip64Extra(
            r.slice(at + 46 + nameLength, extraLength), member,
            member.size == 0xffffffff, member.compressedSize == 0xffffffff,
            member.localOffset == 0xffffffff))
      return fail(llvm::toString(std::move(e)));
    at += 46 + nameLength + extraLength + commentLength;

    StringRef key = member.name;
    if (!key.consume_back(".npy"))
      return fail("is not an .npy array (an .npz holds only *.npy members)");
    if (!names.insert(key).second)
      return fail("appears twice in the archive");
    what = "array '" + key.str() + "'";
    if (member.flags & 1)
      return fail("is encrypted");
    if (member.method != 0 && member.method != 8)
      return fail("uses zip compression method " +
                  llvm::Twine(member.method) +
                  "; only stored (np.savez) and deflated "
                  "(np.savez_compressed) members are read");

    // The local header repeats the name and may carry other extra fields:
    // the data starts after its own lengths.
    uint64_t local = member.localOffset;
    if (!r.has(local, 30) || r.u32(local) != 0x04034b50)
      return fail("its local header is missing");
    uint64_t dataOffset = local + 30 + r.u16(local + 26) + r.u16(local + 28);
    if (!r.has(dataOffset, member.compressedSize))
      return fail("its data runs past the end of the file");
    StringRef stored = r.slice(dataOffset, member.compressedSize);

    std::vector<uint8_t> content;
    if (member.method == 0) {
      if (member.size != member.compressedSize)
        return fail("is stored, but its two recorded sizes differ");
      content.assign(stored.bytes_begin(), stored.bytes_end());
    } else {
      // Deflate expands at most 1032:1; a larger claim is corrupt (and
      // would only exhaust memory).
      if (member.size / 1032 > member.compressedSize + 1)
        return fail("records an uncompressed size of " +
                    llvm::Twine(member.size) + " bytes for " +
                    llvm::Twine(member.compressedSize) +
                    " deflated bytes, more than deflate can produce");
      if (llvm::Error e = inflate(stored, member.size, content))
        return fail(llvm::toString(std::move(e)));
    }
    if (llvm::crc32(content) != member.crc)
      return fail("its CRC-32 does not match its data (a corrupt archive)");
    llvm::Expected<Array> array =
        parseNpy(llvm::toStringRef(content), key);
    if (!array)
      return array.takeError();
    arrays.push_back(std::move(*array));
  }
  return arrays;
}

llvm::Expected<std::string>
helia::numpy::writeNpz(llvm::ArrayRef<Array> arrays) {
  std::string out, directory;
  auto put16 = [](std::string &s, uint16_t v) {
    char b[2];
    llvm::support::endian::write16le(b, v);
    s.append(b, 2);
  };
  auto put32 = [](std::string &s, uint32_t v) {
    char b[4];
    llvm::support::endian::write32le(b, v);
    s.append(b, 4);
  };
  // 1980-01-01 00:00, as Python's zipfile dates members it is not given a
  // time for: the same arrays give the same bytes.
  constexpr uint16_t kTime = 0, kDate = (0 << 9) | (1 << 5) | 1;
  if (arrays.size() >= 0xffff)
    return error("cannot write " + llvm::Twine(arrays.size()) +
                 " arrays into one .npz without zip64");
  for (const Array &array : arrays) {
    std::string name = array.name + ".npy";
    std::string content = writeNpy(array);
    if (content.size() + out.size() + name.size() + 30 > UINT32_MAX ||
        name.size() > 0xffff)
      return error("array '" + array.name +
                   "' does not fit an .npz without zip64 (4 GiB)");
    uint32_t crc = llvm::crc32(llvm::arrayRefFromStringRef(content));
    uint32_t offset = static_cast<uint32_t>(out.size());
    put32(out, 0x04034b50);
    put16(out, 20); // version needed: 2.0
    put16(out, 0);  // flags
    put16(out, 0);  // stored
    put16(out, kTime);
    put16(out, kDate);
    put32(out, crc);
    put32(out, static_cast<uint32_t>(content.size()));
    put32(out, static_cast<uint32_t>(content.size()));
    put16(out, static_cast<uint16_t>(name.size()));
    put16(out, 0);
    out += name;
    out += content;

    put32(directory, 0x02014b50);
    put16(directory, 20); // made by: MS-DOS, 2.0
    put16(directory, 20);
    put16(directory, 0);
    put16(directory, 0);
    put16(directory, kTime);
    put16(directory, kDate);
    put32(directory, crc);
    put32(directory, static_cast<uint32_t>(content.size()));
    put32(directory, static_cast<uint32_t>(content.size()));
    put16(directory, static_cast<uint16_t>(name.size()));
    put16(directory, 0); // extra
    put16(directory, 0); // comment
    put16(directory, 0); // disk
    put16(directory, 0); // internal attributes
    put32(directory, 0); // external attributes
    put32(directory, offset);
    directory += name;
  }
  uint32_t directoryOffset = static_cast<uint32_t>(out.size());
  out += directory;
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, static_cast<uint16_t>(arrays.size()));
  put16(out, static_cast<uint16_t>(arrays.size()));
  put32(out, static_cast<uint32_t>(directory.size()));
  put32(out, directoryOffset);
  put16(out, 0);
  if (out.size() > UINT32_MAX)
    return error("the central directory does not fit an .npz without zip64 "
                 "(4 GiB)");
  return out;
}
