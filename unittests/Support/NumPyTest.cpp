//===- NumPyTest.cpp - the .npy/.npz reader and writer --------------------===//
//
// Round trips, the bytes NumPy itself writes, and every malformed-file
// class with its message. The .npz of np.savez and np.savez_compressed are
// read end to end in test/Tools/helia-compile (made by numpy there).
//
//===----------------------------------------------------------------------===//

#include "helia/Support/NumPy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CRC.h"
#include "llvm/Support/Compression.h"
#include "llvm/Support/Endian.h"

#include "gtest/gtest.h"

using namespace helia::numpy;

namespace {

Array makeArray(std::string name, DType dtype,
                llvm::SmallVector<int64_t> shape) {
  Array a;
  a.name = std::move(name);
  a.dtype = dtype;
  a.shape = std::move(shape);
  a.data.resize(a.numElements() * dtype.bytes);
  for (size_t i = 0; i < a.data.size(); ++i)
    a.data[i] = static_cast<uint8_t>(i * 7 + 1);
  return a;
}

/// An .npy file with the given header dict text.
std::string npy(llvm::StringRef dict, llvm::StringRef data, char major = 1) {
  std::string header = dict.str() + "\n";
  std::string out = "\x93NUMPY";
  out += major;
  out += '\0';
  if (major == 1) {
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>(header.size() >> 8);
  } else {
    char b[4];
    llvm::support::endian::write32le(b, header.size());
    out.append(b, 4);
  }
  return out + header + data.str();
}

std::string errorOf(llvm::StringRef bytes) {
  llvm::Expected<Array> a = parseNpy(bytes, "x");
  EXPECT_FALSE(static_cast<bool>(a));
  return a ? std::string() : llvm::toString(a.takeError());
}

std::string npzErrorOf(llvm::StringRef bytes) {
  llvm::Expected<std::vector<Array>> a = parseNpz(bytes);
  EXPECT_FALSE(static_cast<bool>(a));
  return a ? std::string() : llvm::toString(a.takeError());
}

void put16(std::string &s, uint16_t v) {
  char b[2];
  llvm::support::endian::write16le(b, v);
  s.append(b, 2);
}
void put32(std::string &s, uint32_t v) {
  char b[4];
  llvm::support::endian::write32le(b, v);
  s.append(b, 4);
}
void put64(std::string &s, uint64_t v) {
  char b[8];
  llvm::support::endian::write64le(b, v);
  s.append(b, 8);
}

/// A one-member zip: `stored` as the member's data, with `method`, `flags`
/// and the recorded `size`; with `zip64` the central entry's sizes and
/// offset are in a zip64 extra field.
std::string zip(llvm::StringRef name, llvm::StringRef stored, uint16_t method,
                uint64_t size, uint32_t crc, bool zip64 = false,
                uint16_t flags = 0) {
  std::string out;
  put32(out, 0x04034b50);
  put16(out, 45);
  put16(out, flags);
  put16(out, method);
  put32(out, 0);
  put32(out, crc);
  put32(out, 0xffffffff);
  put32(out, 0xffffffff);
  put16(out, name.size());
  put16(out, 20);
  out += name.str();
  put16(out, 1); // a zip64 extra field in the local header, as numpy writes
  put16(out, 16);
  put64(out, size);
  put64(out, stored.size());
  out += stored.str();
  uint32_t directory = out.size();
  put32(out, 0x02014b50);
  put16(out, 45);
  put16(out, 45);
  put16(out, flags);
  put16(out, method);
  put32(out, 0);
  put32(out, crc);
  put32(out, zip64 ? 0xffffffff : stored.size());
  put32(out, zip64 ? 0xffffffff : size);
  put16(out, name.size());
  put16(out, zip64 ? 28 : 0);
  put16(out, 0);
  put16(out, 0);
  put16(out, 0);
  put32(out, 0);
  put32(out, zip64 ? 0xffffffff : 0);
  out += name.str();
  if (zip64) {
    put16(out, 1);
    put16(out, 24);
    put64(out, size);
    put64(out, stored.size());
    put64(out, 0);
  }
  uint32_t directorySize = out.size() - directory;
  put32(out, 0x06054b50);
  put16(out, 0);
  put16(out, 0);
  put16(out, 1);
  put16(out, 1);
  put32(out, directorySize);
  put32(out, directory);
  put16(out, 0);
  return out;
}

uint32_t crcOf(llvm::StringRef bytes) {
  return llvm::crc32(llvm::arrayRefFromStringRef(bytes));
}

TEST(NumPy, WritesWhatNumPyWrites) {
  // np.save of np.zeros((2, 3), np.float32), byte for byte: the header
  // padded with spaces and a newline to 128 bytes in all.
  std::string bytes = writeNpy(makeArray("a", {'f', 4}, {2, 3}));
  std::string header = "{'descr': '<f4', 'fortran_order': False, 'shape': "
                       "(2, 3), }";
  header.append(128 - 10 - header.size() - 1, ' ');
  EXPECT_EQ(bytes.substr(0, 10), std::string("\x93NUMPY\x01\x00v\x00", 10));
  EXPECT_EQ(bytes.substr(10, 118), header + "\n");
  EXPECT_EQ(bytes.size(), 128u + 24u);
  // One dimension keeps its comma, none is an empty tuple.
  EXPECT_NE(writeNpy(makeArray("a", {'i', 1}, {5})).find("(5,)"),
            std::string::npos);
  EXPECT_NE(writeNpy(makeArray("a", {'u', 1}, {})).find("'|u1'"),
            std::string::npos);
}

TEST(NumPy, RoundTrips) {
  std::vector<Array> arrays = {
      makeArray("input_0", {'i', 1}, {3, 1, 4}),
      makeArray("output_0", {'f', 4}, {3, 2}),
      makeArray("output_1", {'u', 2}, {}),
      makeArray("x/y", {'b', 1}, {0, 7}),
      makeArray("d", {'f', 8}, {2}),
      makeArray("l", {'i', 8}, {1, 1, 1, 1, 1, 1}),
  };
  llvm::Expected<std::string> npz = writeNpz(arrays);
  ASSERT_TRUE(static_cast<bool>(npz));
  llvm::Expected<std::vector<Array>> back = parseNpz(*npz);
  ASSERT_TRUE(static_cast<bool>(back)) << llvm::toString(back.takeError());
  ASSERT_EQ(back->size(), arrays.size());
  for (size_t i = 0; i < arrays.size(); ++i) {
    EXPECT_EQ((*back)[i].name, arrays[i].name);
    EXPECT_EQ((*back)[i].dtype, arrays[i].dtype);
    EXPECT_EQ((*back)[i].shape, arrays[i].shape);
    EXPECT_EQ((*back)[i].data, arrays[i].data);
  }
  // The same arrays give the same bytes.
  EXPECT_EQ(*npz, *writeNpz(arrays));
}

TEST(NumPy, ReadsVersionsAndByteOrders) {
  llvm::Expected<Array> v2 =
      parseNpy(npy("{'descr': '>i2', 'fortran_order': False, 'shape': (2,), }",
                   llvm::StringRef("\x01\x02\x03\x04", 4), 2),
               "v2");
  ASSERT_TRUE(static_cast<bool>(v2)) << llvm::toString(v2.takeError());
  EXPECT_EQ(v2->dtype, (DType{'i', 2}));
  // Big-endian elements are swapped to little-endian.
  EXPECT_EQ(v2->data, (std::vector<uint8_t>{2, 1, 4, 3}));
  llvm::Expected<Array> v3 = parseNpy(
      npy("{\"shape\": (1, 2L), \"descr\": \"=u1\", \"fortran_order\": False}",
          "ab", 3),
      "v3");
  ASSERT_TRUE(static_cast<bool>(v3)) << llvm::toString(v3.takeError());
  EXPECT_EQ(v3->shape, (llvm::SmallVector<int64_t>{1, 2}));
}

TEST(NumPy, RejectsMalformedArrays) {
  const char *ok = "'fortran_order': False, 'shape': (2,)";
  EXPECT_EQ(errorOf("PK\x03\x04"),
            "array 'x': not an .npy file (no \\x93NUMPY magic)");
  EXPECT_EQ(errorOf("\x93NUMPY\x01"), "array 'x': truncated .npy header");
  EXPECT_EQ(errorOf(std::string("\x93NUMPY\x01\x00\xff\x00{", 11)),
            "array 'x': the .npy header runs past the end of the file");
  EXPECT_EQ(errorOf(npy("{'descr': '<i4', 'fortran_order': False, 'shape': "
                        "(2,), }",
                        "abc")),
            "array 'x': its shape and dtype (2 x int32) need 8 bytes of "
            "data, the file has 3");
  EXPECT_EQ(errorOf(npy("{'descr': '<f4', 'fortran_order': True, 'shape': "
                        "(1,), }",
                        "abcd")),
            "array 'x': is stored in Fortran order; save "
            "np.ascontiguousarray(a) instead");
  EXPECT_NE(errorOf(npy(std::string("{'descr': '|O', ") + ok + "}", ""))
                .find("dtype '|O' is not a numeric NumPy type"),
            std::string::npos);
  EXPECT_NE(errorOf(npy(std::string("{'descr': '<c8', ") + ok + "}", ""))
                .find("is not a bool, integer or float type"),
            std::string::npos);
  EXPECT_NE(
      errorOf(npy(std::string("{'descr': [('a', '<i4')], ") + ok + "}", ""))
          .find("'descr' is not a string (a structured dtype?)"),
      std::string::npos);
  EXPECT_NE(errorOf(npy("{'descr': '<i1', 'shape': (2,)}", "ab"))
                .find("it needs 'descr', 'fortran_order' and 'shape'"),
            std::string::npos);
  EXPECT_NE(errorOf(npy(std::string("{'descr': '<i1', 'extra': 1, ") + ok + "}",
                        "ab"))
                .find("unexpected or repeated key 'extra'"),
            std::string::npos);
  EXPECT_NE(errorOf(npy("{'descr': '<i1', 'fortran_order': False, 'shape': "
                        "(-2,)}",
                        ""))
                .find("non-negative integer"),
            std::string::npos);
  // A shape whose byte count overflows is refused before any allocation.
  EXPECT_EQ(errorOf(npy("{'descr': '<f8', 'fortran_order': False, 'shape': "
                        "(576460752303423488, 4)}",
                        "")),
            "array 'x': its shape has more elements than fit in memory");
  EXPECT_EQ(errorOf(npy("{'descr': '<i1', 'fortran_order': False, 'shape': "
                        "(99,), }",
                        "", 4)),
            "array 'x': unsupported .npy format version 4.0");
}

TEST(NumPy, ReadsZip64AndDeflatedMembers) {
  std::string member = writeNpy(makeArray("a", {'i', 2}, {3}));
  llvm::Expected<std::vector<Array>> stored =
      parseNpz(zip("a.npy", member, 0, member.size(), crcOf(member),
                   /*zip64=*/true));
  ASSERT_TRUE(static_cast<bool>(stored)) << llvm::toString(stored.takeError());
  EXPECT_EQ((*stored)[0].shape, (llvm::SmallVector<int64_t>{3}));
  if (!canInflate() || !llvm::compression::zlib::isAvailable())
    GTEST_SKIP() << "built without zlib";
  // zlib's stream without its 2-byte header and 4-byte checksum is the
  // raw deflate data a zip member holds.
  llvm::SmallVector<uint8_t> compressed;
  llvm::compression::zlib::compress(llvm::arrayRefFromStringRef(member),
                                    compressed);
  std::string raw(compressed.begin() + 2, compressed.end() - 4);
  llvm::Expected<std::vector<Array>> deflated =
      parseNpz(zip("a.npy", raw, 8, member.size(), crcOf(member)));
  ASSERT_TRUE(static_cast<bool>(deflated))
      << llvm::toString(deflated.takeError());
  EXPECT_EQ((*deflated)[0].data, (*stored)[0].data);
  EXPECT_EQ(npzErrorOf(zip("a.npy", raw, 8, member.size() + 1, crcOf(member))),
            "array 'a': its deflated data holds " +
                std::to_string(member.size()) + " bytes, the archive records " +
                std::to_string(member.size() + 1));
  EXPECT_EQ(npzErrorOf(zip("a.npy", "\xff\xff\xff", 8, 10, 0)),
            "array 'a': its deflated data is corrupt");
  EXPECT_NE(npzErrorOf(zip("a.npy", "x", 8, 1u << 30, 0))
                .find("more than deflate can produce"),
            std::string::npos);
}

TEST(NumPy, RejectsMalformedArchives) {
  std::string member = writeNpy(makeArray("a", {'i', 1}, {2}));
  uint32_t crc = crcOf(member);
  EXPECT_EQ(npzErrorOf("short"), "is not a zip archive (too short)");
  EXPECT_EQ(npzErrorOf(std::string(100, 'x')),
            "is not a zip archive (no end of central directory record)");
  EXPECT_NE(npzErrorOf(member).find("is an .npy file, not an .npz archive"),
            std::string::npos);
  EXPECT_EQ(npzErrorOf(zip("a.txt", member, 0, member.size(), crc)),
            "member 'a.txt': is not an .npy array (an .npz holds only *.npy "
            "members)");
  EXPECT_EQ(npzErrorOf(zip("a.npy", member, 12, member.size(), crc)),
            "array 'a': uses zip compression method 12; only stored "
            "(np.savez) and deflated (np.savez_compressed) members are read");
  EXPECT_EQ(npzErrorOf(zip("a.npy", member, 0, member.size(), crc, false, 1)),
            "array 'a': is encrypted");
  EXPECT_EQ(npzErrorOf(zip("a.npy", member, 0, member.size(), crc ^ 1)),
            "array 'a': its CRC-32 does not match its data (a corrupt "
            "archive)");
  EXPECT_EQ(npzErrorOf(zip("a.npy", member, 0, member.size() - 1, crc)),
            "array 'a': is stored, but its two recorded sizes differ");
  // Two members of one name.
  std::vector<Array> twice = {makeArray("a", {'i', 1}, {1}),
                              makeArray("a", {'i', 1}, {1})};
  EXPECT_EQ(npzErrorOf(*writeNpz(twice)),
            "member 'a.npy': appears twice in the archive");
  // A member whose .npy is malformed names the array.
  std::string bad = "\x93NUMPY\x01";
  EXPECT_EQ(npzErrorOf(zip("b.npy", bad, 0, bad.size(), crcOf(bad))),
            "array 'b': truncated .npy header");
  // The central directory pointing past the file.
  std::string archive = zip("a.npy", member, 0, member.size(), crc);
  llvm::support::endian::write32le(&archive[archive.size() - 6], 0x7fffffff);
  EXPECT_EQ(npzErrorOf(archive), "its central directory lies outside the file");
}

} // namespace
