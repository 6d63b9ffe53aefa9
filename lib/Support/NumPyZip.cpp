//===- NumPyZip.cpp - NumPy .npz archives
//----------------------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// An .npz is a zip archive of .npy files (PKWARE's APPNOTE: local headers,
// a central directory, the end-of-central-directory record and its zip64
// forms). Every offset and length read from the archive is checked against
// the bytes that are there before it is used.
//
//===----------------------------------------------------------------------===//

#include "helia/Support/NumPy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/Endian.h"

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

namespace {
/// Where the central directory lies, and how many entries it holds.
struct Directory {
  uint64_t entries, size, offset;
};
} // namespace

/// Finds the end-of-central-directory record (and the zip64 record it
/// points at) and checks that the directory lies inside the file.
static llvm::Expected<Directory> findDirectory(const Reader &r,
                                              StringRef bytes) {
  // The end-of-central-directory record: 22 bytes and a comment of up to
  // 64 KiB at the end.
  constexpr uint64_t kEocd = 22;
  if (bytes.size() < kEocd)
    return error("is not a zip archive (too short)");
  std::optional<uint64_t> eocd;
  uint64_t lowest =
      bytes.size() > kEocd + 0xffff ? bytes.size() - kEocd - 0xffff : 0;
  for (uint64_t at = bytes.size() - kEocd + 1; at-- > lowest;)
    if (r.u32(at) == 0x06054b50) {
      eocd = at;
      break;
    }
  if (!eocd)
    return error("is not a zip archive (no end of central directory record)");
  if (r.u16(*eocd + 4) != 0 || r.u16(*eocd + 6) != 0)
    return error("is a multi-part zip archive, which is not supported");
  Directory d{r.u16(*eocd + 10), r.u32(*eocd + 12), r.u32(*eocd + 16)};
  if (d.entries == 0xffff || d.size == 0xffffffff || d.offset == 0xffffffff) {
    // zip64: a locator right before the record points at the zip64 record.
    if (*eocd < 20 || r.u32(*eocd - 20) != 0x07064b50)
      return error("its zip64 end of central directory locator is missing");
    uint64_t record = r.u64(*eocd - 20 + 8);
    if (!r.has(record, 56) || r.u32(record) != 0x06064b50)
      return error("its zip64 end of central directory record is missing");
    d.entries = r.u64(record + 32);
    d.size = r.u64(record + 40);
    d.offset = r.u64(record + 48);
  }
  if (!r.has(d.offset, d.size))
    return error("its central directory lies outside the file");
  return d;
}

/// Reads central directory entry `index` at `at` (the directory ends at
/// `end`) into `member`, sizes from its zip64 field included; `at` moves to
/// the next entry.
static llvm::Error readEntry(const Reader &r, uint64_t index, uint64_t &at,
                             uint64_t end, Member &member) {
  if (at > end || end - at < 46 || r.u32(at) != 0x02014b50)
    return error("central directory entry " + llvm::Twine(index) +
                 " is malformed");
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
  if (llvm::Error e = readZip64Extra(
          r.slice(at + 46 + nameLength, extraLength), member,
          member.size == 0xffffffff, member.compressedSize == 0xffffffff,
          member.localOffset == 0xffffffff))
    return error("member '" + member.name + "': " + llvm::toString(std::move(e)));
  at += 46 + nameLength + extraLength + commentLength;
  return llvm::Error::success();
}

/// The uncompressed bytes of `member`, after its local header, checked
/// against its sizes and CRC-32; errors through `fail`.
template <typename Fail>
static llvm::Error readContent(const Reader &r, const Member &member,
                               Fail &fail, std::vector<uint8_t> &content) {
  // The local header repeats the name and may carry other extra fields:
  // the data starts after its own lengths.
  uint64_t local = member.localOffset;
  if (!r.has(local, 30) || r.u32(local) != 0x04034b50)
    return fail("its local header is missing");
  uint64_t dataOffset = local + 30 + r.u16(local + 26) + r.u16(local + 28);
  if (!r.has(dataOffset, member.compressedSize))
    return fail("its data runs past the end of the file");
  StringRef stored = r.slice(dataOffset, member.compressedSize);

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
  return llvm::Error::success();
}

llvm::Expected<std::vector<Array>> helia::numpy::parseNpz(StringRef bytes) {
  Reader r(bytes);
  if (bytes.starts_with("\x93NUMPY"))
    return error("is an .npy file, not an .npz archive; save the arrays with "
                 "np.savez(path, input_0=..., output_0=...)");
  llvm::Expected<Directory> directory = findDirectory(r, bytes);
  if (!directory)
    return directory.takeError();

  std::vector<Array> arrays;
  llvm::StringSet<> names;
  uint64_t at = directory->offset, end = directory->offset + directory->size;
  for (uint64_t index = 0; index < directory->entries; ++index) {
    Member member;
    if (llvm::Error e = readEntry(r, index, at, end, member))
      return std::move(e);
    std::string what = "member '" + member.name + "'";
    auto fail = [&](const llvm::Twine &message) {
      return error(what + ": " + message);
    };
    StringRef key = member.name;
    if (!key.consume_back(".npy"))
      return fail("is not an .npy array (an .npz holds only *.npy members)");
    if (!names.insert(key).second)
      return fail("appears twice in the archive");
    what = "array '" + key.str() + "'";
    if (member.flags & 1)
      return fail("is encrypted");
    if (member.method != 0 && member.method != 8)
      return fail("uses zip compression method " + llvm::Twine(member.method) +
                  "; only stored (np.savez) and deflated "
                  "(np.savez_compressed) members are read");
    std::vector<uint8_t> content;
    if (llvm::Error e = readContent(r, member, fail, content))
      return std::move(e);
    llvm::Expected<Array> array = parseNpy(llvm::toStringRef(content), key);
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
