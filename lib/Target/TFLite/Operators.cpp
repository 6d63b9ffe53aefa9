//===- Operators.cpp - TFLite builtin operators and their converters ------===//

#include "Importer.h"

using namespace mlir;
using namespace mlir::helia::tflite;

namespace {
/// TFLite's builtin operator codes that helia converts or names in errors.
enum BuiltinOperator : int32_t {
  ADD = 0,
  AVERAGE_POOL_2D = 1,
  CONCATENATION = 2,
  CONV_2D = 3,
  DEPTHWISE_CONV_2D = 4,
  DEQUANTIZE = 6,
  FULLY_CONNECTED = 9,
  LOGISTIC = 14,
  MAX_POOL_2D = 17,
  MUL = 18,
  RELU = 19,
  RELU_N1_TO_1 = 20,
  RELU6 = 21,
  RESHAPE = 22,
  SOFTMAX = 25,
  TANH = 28,
  PAD = 34,
  TRANSPOSE = 39,
  MEAN = 40,
  SUB = 41,
  SQUEEZE = 43,
  UNIDIRECTIONAL_SEQUENCE_LSTM = 44,
  STRIDED_SLICE = 45,
  PADV2 = 60,
  TRANSPOSE_CONV = 67,
  EXPAND_DIMS = 70,
  LEAKY_RELU = 98,
  QUANTIZE = 114,
};
} // namespace

/// Names of TFLite's builtin operators, indexed by code (schema.fbs order).
static const char *const kOperatorNames[] = {
    "ADD", "AVERAGE_POOL_2D", "CONCATENATION", "CONV_2D", "DEPTHWISE_CONV_2D",
    "DEPTH_TO_SPACE", "DEQUANTIZE", "EMBEDDING_LOOKUP", "FLOOR",
    "FULLY_CONNECTED", "HASHTABLE_LOOKUP", "L2_NORMALIZATION", "L2_POOL_2D",
    "LOCAL_RESPONSE_NORMALIZATION", "LOGISTIC", "LSH_PROJECTION", "LSTM",
    "MAX_POOL_2D", "MUL", "RELU", "RELU_N1_TO_1", "RELU6", "RESHAPE",
    "RESIZE_BILINEAR", "RNN", "SOFTMAX", "SPACE_TO_DEPTH", "SVDF", "TANH",
    "CONCAT_EMBEDDINGS", "SKIP_GRAM", "CALL", "CUSTOM",
    "EMBEDDING_LOOKUP_SPARSE", "PAD", "UNIDIRECTIONAL_SEQUENCE_RNN", "GATHER",
    "BATCH_TO_SPACE_ND", "SPACE_TO_BATCH_ND", "TRANSPOSE", "MEAN", "SUB",
    "DIV", "SQUEEZE", "UNIDIRECTIONAL_SEQUENCE_LSTM", "STRIDED_SLICE",
    "BIDIRECTIONAL_SEQUENCE_RNN", "EXP", "TOPK_V2", "SPLIT", "LOG_SOFTMAX",
    "DELEGATE", "BIDIRECTIONAL_SEQUENCE_LSTM", "CAST", "PRELU", "MAXIMUM",
    "ARG_MAX", "MINIMUM", "LESS", "NEG", "PADV2", "GREATER", "GREATER_EQUAL",
    "LESS_EQUAL", "SELECT", "SLICE", "SIN", "TRANSPOSE_CONV",
    "SPARSE_TO_DENSE", "TILE", "EXPAND_DIMS", "EQUAL", "NOT_EQUAL", "LOG",
    "SUM", "SQRT", "RSQRT", "SHAPE", "POW", "ARG_MIN", "FAKE_QUANT",
    "REDUCE_PROD", "REDUCE_MAX", "PACK", "LOGICAL_OR", "ONE_HOT",
    "LOGICAL_AND", "LOGICAL_NOT", "UNPACK", "REDUCE_MIN", "FLOOR_DIV",
    "REDUCE_ANY", "SQUARE", "ZEROS_LIKE", "FILL", "FLOOR_MOD", "RANGE",
    "RESIZE_NEAREST_NEIGHBOR", "LEAKY_RELU", "SQUARED_DIFFERENCE",
    "MIRROR_PAD", "ABS", "SPLIT_V", "UNIQUE", "CEIL", "REVERSE_V2", "ADD_N",
    "GATHER_ND", "COS", "WHERE", "RANK", "ELU", "REVERSE_SEQUENCE",
    "MATRIX_DIAG", "QUANTIZE", "MATRIX_SET_DIAG", "ROUND", "HARD_SWISH", "IF",
    "WHILE", "NON_MAX_SUPPRESSION_V4", "NON_MAX_SUPPRESSION_V5", "SCATTER_ND",
    "SELECT_V2", "DENSIFY", "SEGMENT_SUM", "BATCH_MATMUL",
    "PLACEHOLDER_FOR_GREATER_OP_CODES", "CUMSUM", "CALL_ONCE", "BROADCAST_TO",
    "RFFT2D", "CONV_3D", "IMAG", "REAL", "COMPLEX_ABS", "HASHTABLE",
    "HASHTABLE_FIND", "HASHTABLE_IMPORT", "HASHTABLE_SIZE", "REDUCE_ALL",
    "CONV_3D_TRANSPOSE", "VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE",
    "BROADCAST_ARGS", "RANDOM_STANDARD_NORMAL", "BUCKETIZE", "RANDOM_UNIFORM",
    "MULTINOMIAL", "GELU", "DYNAMIC_UPDATE_SLICE", "RELU_0_TO_1",
    "UNSORTED_SEGMENT_PROD", "UNSORTED_SEGMENT_MAX", "UNSORTED_SEGMENT_SUM",
    "ATAN2", "UNSORTED_SEGMENT_MIN", "SIGN", "BITCAST", "BITWISE_XOR",
    "RIGHT_SHIFT"};

StringRef mlir::helia::tflite::getBuiltinOperatorName(int32_t code) {
  if (code < 0 ||
      code >= static_cast<int32_t>(std::size(kOperatorNames)))
    return "";
  return kOperatorNames[code];
}

LogicalResult mlir::helia::tflite::convertOperator(OpContext &ctx) {
  switch (ctx.getCode()) {
  case ADD:
  case SUB:
    return convertAddSub(ctx);
  case MUL:
    return convertMul(ctx);
  case AVERAGE_POOL_2D:
    return convertAveragePool2D(ctx);
  case MAX_POOL_2D:
    return convertMaxPool2D(ctx);
  case CONCATENATION:
    return convertConcatenation(ctx);
  case CONV_2D:
    return convertConv2D(ctx);
  case DEPTHWISE_CONV_2D:
    return convertDepthwiseConv2D(ctx);
  case FULLY_CONNECTED:
    return convertFullyConnected(ctx);
  case TRANSPOSE_CONV:
    return convertTransposeConv(ctx);
  case DEQUANTIZE:
    return convertDequantize(ctx);
  case QUANTIZE:
    return convertQuantize(ctx);
  case LOGISTIC:
  case TANH:
    return convertLogisticTanh(ctx);
  case RELU:
  case RELU6:
  case RELU_N1_TO_1:
    return convertRelu(ctx);
  case LEAKY_RELU:
    return convertLeakyRelu(ctx);
  case SOFTMAX:
    return convertSoftmax(ctx);
  case RESHAPE:
  case SQUEEZE:
  case EXPAND_DIMS:
    return convertReshape(ctx);
  case PAD:
  case PADV2:
    return convertPad(ctx);
  case STRIDED_SLICE:
    return convertStridedSlice(ctx);
  case TRANSPOSE:
    return convertTranspose(ctx);
  case MEAN:
    return convertMean(ctx);
  case UNIDIRECTIONAL_SEQUENCE_LSTM:
    return convertUnidirectionalSequenceLSTM(ctx);
  default:
    break;
  }
  StringRef name = getBuiltinOperatorName(ctx.getCode());
  if (name.empty())
    return ctx.emitError() << "has builtin code " << ctx.getCode()
                           << ", which this version of TFLite's schema does "
                              "not define";
  return ctx.emitError() << "is not supported by helia's importer "
                            "(docs/TFLite.md lists the supported operators)";
}
