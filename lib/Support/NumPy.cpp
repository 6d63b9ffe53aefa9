//===- NumPy.cpp - NumPy .npy and .npz files ------------------------------===//
//
// Part of the helia project.
//
//===----------------------------------------------------------------------===//
//
// The .npy format is NumPy's `numpy.lib.format`: a magic string, a version,
// a Python dict literal with `descr`, `fortran_order` and `shape`, then the
// raw elements. Every length read from the file is checked against the
// bytes that are there before it is used. The .npz archives are in
// NumPyZip.cpp.
//
//===----------------------------------------------------------------------===//

#include "helia/Support/NumPy.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>
#include <optional>

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

namespace {
/// The fields of an .npy header dict.
struct NpyHeader {
  std::string descr;
  bool fortran = false;
  llvm::SmallVector<int64_t> shape;
};
} // namespace

/// The magic string and format version: the header dict's text and the
/// payload after it, or `fail`'s error.
template <typename Fail>
static llvm::Error splitNpy(StringRef bytes, Fail &fail, StringRef &header,
                            StringRef &payload) {
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
    return fail(
        "unsupported .npy format version " + llvm::Twine(major) + "." +
        llvm::Twine(static_cast<unsigned>(static_cast<uint8_t>(bytes[7]))));
  }
  if (headerLength > bytes.size() - headerStart)
    return fail("the .npy header runs past the end of the file");
  header = bytes.substr(headerStart, headerLength);
  payload = bytes.drop_front(headerStart + headerLength);
  return llvm::Error::success();
}

/// The header dict's fields, each once, all three:
///   {'descr': '<i1', 'fortran_order': False, 'shape': (3, 4), }
template <typename Fail>
static llvm::Error parseNpyHeader(StringRef header, Fail &fail,
                                  NpyHeader &fields) {
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
  fields.descr = std::move(*descr);
  fields.fortran = *fortran;
  fields.shape = std::move(*shape);
  return llvm::Error::success();
}

/// The payload of `array` (dtype and shape set): exactly the bytes its
/// shape needs, in native byte order.
template <typename Fail>
static llvm::Error readNpyPayload(StringRef payload, bool swap, Fail &fail,
                                  Array &array) {
  // The element count, without overflow: the data must hold it exactly.
  uint64_t expected = array.dtype.bytes;
  for (int64_t dim : array.shape)
    if (__builtin_mul_overflow(expected, static_cast<uint64_t>(dim), &expected))
      return fail("its shape has more elements than fit in memory");
  if (payload.size() != expected)
    return fail(llvm::formatv("its shape and dtype ({0} x {1}) need {2} "
                              "bytes of data, the file has {3}",
                              array.numElements(), array.dtype.name(), expected,
                              payload.size())
                    .str());
  array.data.assign(payload.bytes_begin(), payload.bytes_end());
  if (swap)
    for (size_t i = 0; i < array.data.size(); i += array.dtype.bytes)
      std::reverse(array.data.begin() + i,
                   array.data.begin() + i + array.dtype.bytes);
  return llvm::Error::success();
}

llvm::Expected<Array> helia::numpy::parseNpy(StringRef bytes, StringRef name) {
  auto fail = [&](const llvm::Twine &what) {
    return error("array '" + name + "': " + what);
  };
  StringRef header, payload;
  if (llvm::Error err = splitNpy(bytes, fail, header, payload))
    return std::move(err);
  NpyHeader fields;
  if (llvm::Error err = parseNpyHeader(header, fail, fields))
    return std::move(err);
  if (fields.fortran)
    return fail("is stored in Fortran order; save "
                "np.ascontiguousarray(a) instead");

  bool swap = false;
  llvm::Expected<DType> dtype = parseDescr(fields.descr, swap);
  if (!dtype)
    return fail(llvm::toString(dtype.takeError()));

  Array array;
  array.name = name.str();
  array.dtype = *dtype;
  array.shape = std::move(fields.shape);
  if (llvm::Error err = readNpyPayload(payload, swap, fail, array))
    return std::move(err);
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
