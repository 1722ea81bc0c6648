// GENERATED FILE - DO NOT EDIT.
// Produced by `webnn-bridge codegen` (src/webnn_bridge/devtools/codegen/jsgen.py) from the Python op rules in src/webnn_bridge/ops/
// (defs/*, registry.py, core.py, calls.py). Regenerate with `webnn-bridge codegen`; CI runs `webnn-bridge codegen --check`.
// The op rules (validation and shape inference), translated from Python; the prelude
// (js_shim/rules_prelude.js) gives Python's value semantics.

const K_e1da7d4990 = $T(["float32", "float16", "int32", "int64", "int8"]);
const K_702a2b6e38 = $T(["float32", "float16", "int32"]);
const K_eff2ec8eb3 = Object.freeze({types: K_e1da7d4990, ranks: $T([0, null]), same: null, same_rank: null, required_types: K_702a2b6e38, required_ranks: $T([0, 5])});
const K_209ac31552 = $T(["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8"]);
const K_962004578a = Object.freeze({types: K_209ac31552, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const LIMITS_abs = $dict([["input", K_eff2ec8eb3], ["output", K_962004578a]]);
const K_ae51133240 = Object.freeze({types: K_209ac31552, ranks: $T([0, null]), same: null, same_rank: null, required_types: K_702a2b6e38, required_ranks: $T([0, 5])});
const K_ea2b64b0fd = Object.freeze({types: K_209ac31552, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const LIMITS_add = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_ea2b64b0fd]]);
const K_84ad5872fc = Object.freeze({types: K_209ac31552, ranks: $T([1, null]), same: null, same_rank: null, required_types: K_702a2b6e38, required_ranks: $T([1, 5])});
const K_483ce21255 = Object.freeze({types: $T(["int32", "int64"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["int32"]), required_ranks: $T([0, 5])});
const LIMITS_argMax = $dict([["input", K_84ad5872fc], ["output", K_483ce21255]]);
const LIMITS_argMin = $dict([["input", K_84ad5872fc], ["output", K_483ce21255]]);
const K_bae45b5002 = $T(["float32", "float16"]);
const K_79225d608f = Object.freeze({types: K_bae45b5002, ranks: $T([4, 4]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([4, 4])});
const K_4de310b4f7 = Object.freeze({types: K_209ac31552, ranks: $T([4, 4]), same: "input", same_rank: null, required_types: K_bae45b5002, required_ranks: $T([4, 4])});
const LIMITS_averagePool2d = $dict([["input", K_79225d608f], ["output", K_4de310b4f7]]);
const K_c235410c24 = Object.freeze({types: K_bae45b5002, ranks: $T([1, null]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([3, 5])});
const K_e738674f48 = Object.freeze({types: K_209ac31552, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const LIMITS_batchNormalization = $dict([["input", K_c235410c24], ["mean", K_e738674f48], ["variance", K_e738674f48], ["scale", K_e738674f48], ["bias", K_e738674f48], ["output", K_962004578a]]);
const K_2bc5df3d3b = $T(["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int4", "uint4"]);
const K_20404df4df = $T(["float32", "float16", "int32", "int8", "uint8"]);
const K_7f842b7442 = Object.freeze({types: K_2bc5df3d3b, ranks: $T([0, null]), same: null, same_rank: null, required_types: K_20404df4df, required_ranks: $T([0, 5])});
const K_1558e06cfe = Object.freeze({types: K_2bc5df3d3b, ranks: $T([0, null]), same: null, same_rank: "input", required_types: K_20404df4df, required_ranks: $T([0, 5])});
const LIMITS_cast = $dict([["input", K_7f842b7442], ["output", K_1558e06cfe]]);
const K_c403ab9305 = Object.freeze({types: K_bae45b5002, ranks: $T([0, null]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([0, 5])});
const LIMITS_ceil = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const K_1801814665 = Object.freeze({types: K_209ac31552, ranks: $T([0, null]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([0, 5])});
const LIMITS_clamp = $dict([["input", K_1801814665], ["output", K_962004578a]]);
const K_c73bc136d3 = Object.freeze({types: K_2bc5df3d3b, ranks: $T([1, null]), same: null, same_rank: null, required_types: K_702a2b6e38, required_ranks: $T([1, 5])});
const K_a42ada13dc = Object.freeze({types: K_209ac31552, ranks: $T([1, null]), same: "inputs", same_rank: null, required_types: K_702a2b6e38, required_ranks: $T([1, 5])});
const LIMITS_concat = $dict([["inputs", K_c73bc136d3], ["output", K_a42ada13dc]]);
const K_76c0cd1eca = Object.freeze({types: K_209ac31552, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: K_bae45b5002, required_ranks: $T([1, 1])});
const LIMITS_conv2d = $dict([["input", K_79225d608f], ["filter", K_4de310b4f7], ["bias", K_76c0cd1eca], ["output", K_4de310b4f7]]);
const LIMITS_convTranspose2d = $dict([["input", K_79225d608f], ["filter", K_962004578a], ["bias", K_e738674f48], ["output", K_962004578a]]);
const LIMITS_cos = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const K_157c81d968 = $T(["float32", "float16", "int32", "uint32", "int64", "uint64"]);
const K_d6d96036e3 = Object.freeze({types: K_157c81d968, ranks: $T([1, null]), same: null, same_rank: null, required_types: K_702a2b6e38, required_ranks: $T([1, 5])});
const LIMITS_cumulativeSum = $dict([["input", K_d6d96036e3], ["output", K_962004578a]]);
const K_7ac38f0167 = $T(["uint8", "int8", "uint32", "int32", "int4", "uint4"]);
const K_5f2b8d4aae = Object.freeze({types: K_7ac38f0167, ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8", "int8"]), required_ranks: $T([0, 5])});
const K_f666e6a0e9 = Object.freeze({types: K_209ac31552, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K_4c15503e4c = Object.freeze({types: K_209ac31552, ranks: $T([0, null]), same: "scale", same_rank: null, required_types: $T([]), required_ranks: null});
const LIMITS_dequantizeLinear = $dict([["input", K_5f2b8d4aae], ["scale", K_c403ab9305], ["zeroPoint", K_f666e6a0e9], ["output", K_4c15503e4c]]);
const LIMITS_div = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_ea2b64b0fd]]);
const LIMITS_elu = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const K_2476ba01cf = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const LIMITS_equal = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_2476ba01cf]]);
const LIMITS_erf = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_exp = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const K_d81a6f9ad3 = Object.freeze({types: K_2bc5df3d3b, ranks: $T([0, null]), same: null, same_rank: null, required_types: K_702a2b6e38, required_ranks: $T([0, 5])});
const LIMITS_expand = $dict([["input", K_d81a6f9ad3], ["output", K_f666e6a0e9]]);
const LIMITS_floor = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const K_ac280b1974 = Object.freeze({types: K_2bc5df3d3b, ranks: $T([1, null]), same: null, same_rank: null, required_types: K_20404df4df, required_ranks: $T([1, 5])});
const K_b76c9212cf = $T(["int32", "uint32", "int64"]);
const K_800b119349 = Object.freeze({types: K_b76c9212cf, ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["int32"]), required_ranks: $T([0, 5])});
const LIMITS_gather = $dict([["input", K_ac280b1974], ["indices", K_800b119349], ["output", K_f666e6a0e9]]);
const K_db4d17008b = Object.freeze({types: K_b76c9212cf, ranks: $T([0, null]), same: null, same_rank: "input", required_types: $T(["int32"]), required_ranks: $T([1, 5])});
const LIMITS_gatherElements = $dict([["input", K_84ad5872fc], ["indices", K_db4d17008b], ["output", K_962004578a]]);
const K_733dbce0cc = Object.freeze({types: K_209ac31552, ranks: $T([1, null]), same: null, same_rank: null, required_types: K_20404df4df, required_ranks: $T([1, 5])});
const K_d612551be1 = Object.freeze({types: K_b76c9212cf, ranks: $T([1, null]), same: null, same_rank: null, required_types: $T(["int32"]), required_ranks: $T([1, 5])});
const LIMITS_gatherND = $dict([["input", K_733dbce0cc], ["indices", K_d612551be1], ["output", K_f666e6a0e9]]);
const LIMITS_gelu = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const K_118abdf5c9 = Object.freeze({types: K_bae45b5002, ranks: $T([2, 2]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([2, 2])});
const K_dcda90c6a0 = Object.freeze({types: K_209ac31552, ranks: $T([2, 2]), same: "a", same_rank: null, required_types: K_bae45b5002, required_ranks: $T([2, 2])});
const K_bc782e19d7 = Object.freeze({types: K_209ac31552, ranks: $T([0, 2]), same: "a", same_rank: null, required_types: K_bae45b5002, required_ranks: $T([0, 2])});
const LIMITS_gemm = $dict([["a", K_118abdf5c9], ["b", K_dcda90c6a0], ["c", K_bc782e19d7], ["output", K_dcda90c6a0]]);
const LIMITS_greater = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_2476ba01cf]]);
const LIMITS_greaterOrEqual = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_2476ba01cf]]);
const K_3d50ebbc9b = Object.freeze({types: K_bae45b5002, ranks: $T([3, 3]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([3, 3])});
const K_5f5e7861db = Object.freeze({types: K_209ac31552, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K_9ab3ef5ded = Object.freeze({types: K_209ac31552, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K_1c1495ea9c = Object.freeze({types: K_209ac31552, ranks: $T([4, 4]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const LIMITS_gru = $dict([["input", K_3d50ebbc9b], ["weight", K_5f5e7861db], ["recurrentWeight", K_5f5e7861db], ["bias", K_9ab3ef5ded], ["recurrentBias", K_9ab3ef5ded], ["initialHiddenState", K_5f5e7861db], ["output0", K_5f5e7861db], ["output1", K_1c1495ea9c]]);
const K_8633add586 = $T(["output0", "output1"]);
const LIMITS_gruCell = $dict([["input", K_118abdf5c9], ["weight", K_9ab3ef5ded], ["recurrentWeight", K_9ab3ef5ded], ["hiddenState", K_9ab3ef5ded], ["bias", K_e738674f48], ["recurrentBias", K_e738674f48], ["output", K_9ab3ef5ded]]);
const LIMITS_hardSigmoid = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_hardSwish = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_identity = $dict([["input", K_ae51133240], ["output", K_962004578a]]);
const LIMITS_instanceNormalization = $dict([["input", K_79225d608f], ["scale", K_e738674f48], ["bias", K_e738674f48], ["output", K_962004578a]]);
const LIMITS_isInfinite = $dict([["a", K_1801814665], ["output", K_2476ba01cf]]);
const LIMITS_isNaN = $dict([["a", K_1801814665], ["output", K_2476ba01cf]]);
const LIMITS_l2Pool2d = $dict([["input", K_79225d608f], ["output", K_4de310b4f7]]);
const LIMITS_layerNormalization = $dict([["input", K_c403ab9305], ["scale", K_f666e6a0e9], ["bias", K_f666e6a0e9], ["output", K_962004578a]]);
const LIMITS_leakyRelu = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_lesser = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_2476ba01cf]]);
const LIMITS_lesserOrEqual = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_2476ba01cf]]);
const LIMITS_linear = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_log = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_logicalAnd = $dict([["a", K_2476ba01cf], ["b", K_ea2b64b0fd], ["output", K_2476ba01cf]]);
const LIMITS_logicalNot = $dict([["a", K_2476ba01cf], ["output", K_2476ba01cf]]);
const LIMITS_logicalOr = $dict([["a", K_2476ba01cf], ["b", K_ea2b64b0fd], ["output", K_2476ba01cf]]);
const LIMITS_logicalXor = $dict([["a", K_2476ba01cf], ["b", K_ea2b64b0fd], ["output", K_2476ba01cf]]);
const LIMITS_lstm = $dict([["input", K_3d50ebbc9b], ["weight", K_5f5e7861db], ["recurrentWeight", K_5f5e7861db], ["bias", K_9ab3ef5ded], ["recurrentBias", K_9ab3ef5ded], ["peepholeWeight", K_9ab3ef5ded], ["initialHiddenState", K_5f5e7861db], ["initialCellState", K_5f5e7861db], ["output0", K_5f5e7861db], ["output1", K_5f5e7861db], ["output2", K_1c1495ea9c]]);
const K_498c568eab = $T(["output0", "output1", "output2"]);
const LIMITS_lstmCell = $dict([["input", K_118abdf5c9], ["weight", K_9ab3ef5ded], ["recurrentWeight", K_9ab3ef5ded], ["hiddenState", K_9ab3ef5ded], ["cellState", K_9ab3ef5ded], ["bias", K_e738674f48], ["recurrentBias", K_e738674f48], ["peepholeWeight", K_e738674f48], ["output0", K_9ab3ef5ded], ["output1", K_9ab3ef5ded]]);
const K_38679d715e = Object.freeze({types: K_bae45b5002, ranks: $T([2, null]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([2, 5])});
const K_f9622b94c1 = Object.freeze({types: K_209ac31552, ranks: $T([2, null]), same: "a", same_rank: null, required_types: K_bae45b5002, required_ranks: $T([2, 5])});
const LIMITS_matmul = $dict([["a", K_38679d715e], ["b", K_f9622b94c1], ["output", K_f9622b94c1]]);
const LIMITS_max = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_ea2b64b0fd]]);
const K_632523aa5f = Object.freeze({types: K_209ac31552, ranks: $T([4, 4]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([4, 4])});
const LIMITS_maxPool2d = $dict([["input", K_632523aa5f], ["output", K_4de310b4f7]]);
const LIMITS_min = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_ea2b64b0fd]]);
const LIMITS_mul = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_ea2b64b0fd]]);
const LIMITS_neg = $dict([["input", K_eff2ec8eb3], ["output", K_962004578a]]);
const LIMITS_notEqual = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_2476ba01cf]]);
const LIMITS_pad = $dict([["input", K_1801814665], ["output", K_962004578a]]);
const LIMITS_pow = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_ea2b64b0fd]]);
const K_1d4764acf2 = $T(["float32", "float16", "int64", "int32", "int8"]);
const K_62a1d3a7ea = Object.freeze({types: K_1d4764acf2, ranks: $T([0, null]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([0, 5])});
const LIMITS_prelu = $dict([["input", K_62a1d3a7ea], ["slope", K_f666e6a0e9], ["output", K_962004578a]]);
const K_78c5ee6108 = Object.freeze({types: K_209ac31552, ranks: $T([0, null]), same: "zeroPoint", same_rank: null, required_types: $T([]), required_ranks: null});
const LIMITS_quantizeLinear = $dict([["input", K_c403ab9305], ["scale", K_f666e6a0e9], ["zeroPoint", K_5f2b8d4aae], ["output", K_78c5ee6108]]);
const LIMITS_reciprocal = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const K_b40a079f40 = Object.freeze({types: K_157c81d968, ranks: $T([0, null]), same: null, same_rank: null, required_types: K_702a2b6e38, required_ranks: $T([0, 5])});
const LIMITS_reduceL1 = $dict([["input", K_b40a079f40], ["output", K_f666e6a0e9]]);
const LIMITS_reduceL2 = $dict([["input", K_c403ab9305], ["output", K_f666e6a0e9]]);
const LIMITS_reduceLogSum = $dict([["input", K_c403ab9305], ["output", K_f666e6a0e9]]);
const LIMITS_reduceLogSumExp = $dict([["input", K_c403ab9305], ["output", K_f666e6a0e9]]);
const LIMITS_reduceMax = $dict([["input", K_ae51133240], ["output", K_f666e6a0e9]]);
const LIMITS_reduceMean = $dict([["input", K_c403ab9305], ["output", K_f666e6a0e9]]);
const LIMITS_reduceMin = $dict([["input", K_ae51133240], ["output", K_f666e6a0e9]]);
const K_8057929a14 = Object.freeze({types: K_157c81d968, ranks: $T([0, null]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([0, 5])});
const LIMITS_reduceProduct = $dict([["input", K_8057929a14], ["output", K_f666e6a0e9]]);
const LIMITS_reduceSum = $dict([["input", K_b40a079f40], ["output", K_f666e6a0e9]]);
const LIMITS_reduceSumSquare = $dict([["input", K_b40a079f40], ["output", K_f666e6a0e9]]);
const K_8b48c32812 = Object.freeze({types: K_e1da7d4990, ranks: $T([0, null]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([0, 5])});
const LIMITS_relu = $dict([["input", K_8b48c32812], ["output", K_962004578a]]);
const K_9cf7f6c535 = $T(["float32", "float16", "int8", "uint8"]);
const K_e5d8849e04 = Object.freeze({types: K_9cf7f6c535, ranks: $T([4, 4]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([4, 4])});
const LIMITS_resample2d = $dict([["input", K_e5d8849e04], ["output", K_962004578a]]);
const K_fe1865fb10 = Object.freeze({types: K_209ac31552, ranks: $T([0, null]), same: "input", same_rank: null, required_types: K_20404df4df, required_ranks: $T([0, 5])});
const LIMITS_reshape = $dict([["input", K_7f842b7442], ["output", K_fe1865fb10]]);
const LIMITS_reverse = $dict([["input", K_ae51133240], ["output", K_962004578a]]);
const LIMITS_roundEven = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_scatterElements = $dict([["input", K_84ad5872fc], ["indices", K_db4d17008b], ["updates", K_962004578a], ["output", K_962004578a]]);
const LIMITS_scatterND = $dict([["input", K_84ad5872fc], ["indices", K_d612551be1], ["updates", K_f666e6a0e9], ["output", K_962004578a]]);
const LIMITS_sigmoid = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_sign = $dict([["input", K_eff2ec8eb3], ["output", K_962004578a]]);
const LIMITS_sin = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_slice = $dict([["input", K_7f842b7442], ["output", K_962004578a]]);
const K_35a54300b8 = Object.freeze({types: K_bae45b5002, ranks: $T([1, null]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([1, 5])});
const K_fef593e64c = Object.freeze({types: K_209ac31552, ranks: $T([1, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const LIMITS_softmax = $dict([["input", K_35a54300b8], ["output", K_fef593e64c]]);
const LIMITS_softplus = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_softsign = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_split = $dict([["input", K_84ad5872fc], ["outputs", K_962004578a]]);
const LIMITS_sqrt = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_sub = $dict([["a", K_ae51133240], ["b", K_ea2b64b0fd], ["output", K_ea2b64b0fd]]);
const LIMITS_tan = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_tanh = $dict([["input", K_c403ab9305], ["output", K_962004578a]]);
const LIMITS_tile = $dict([["input", K_ae51133240], ["output", K_962004578a]]);
const LIMITS_transpose = $dict([["input", K_d81a6f9ad3], ["output", K_962004578a]]);
const K_96c55ff513 = Object.freeze({types: K_209ac31552, ranks: $T([2, null]), same: null, same_rank: null, required_types: K_bae45b5002, required_ranks: $T([2, 5])});
const LIMITS_triangular = $dict([["input", K_96c55ff513], ["output", K_962004578a]]);
const K_13f2a18df2 = Object.freeze({types: K_209ac31552, ranks: $T([0, null]), same: "trueValue", same_rank: null, required_types: $T([]), required_ranks: null});
const LIMITS_where = $dict([["condition", K_2476ba01cf], ["trueValue", K_ae51133240], ["falseValue", K_13f2a18df2], ["output", K_13f2a18df2]]);
const K_eb180c2376 = $dict([["oihw", $T([0, 1, 2, 3])], ["hwio", $T([3, 2, 0, 1])], ["ohwi", $T([0, 3, 1, 2])], ["ihwo", $T([3, 0, 1, 2])]]);
const K_99b977ae70 = $dict([["iohw", $T([0, 1, 2, 3])], ["hwoi", $T([3, 2, 0, 1])], ["ohwi", $T([3, 0, 1, 2])]]);
const K_dd1d1920c1 = Object.freeze({name: "float32", numpy: null, js_array: "Float32Array", onnx: 1, bits: 0});
const K_2e8d5c8e49 = Object.freeze({name: "float16", numpy: null, js_array: "Float16Array", onnx: 10, bits: 0});
const K_b117928217 = Object.freeze({name: "int32", numpy: null, js_array: "Int32Array", onnx: 6, bits: 0});
const K_b2253334a1 = Object.freeze({name: "uint32", numpy: null, js_array: "Uint32Array", onnx: 12, bits: 0});
const K_79ba208cd5 = Object.freeze({name: "int64", numpy: null, js_array: "BigInt64Array", onnx: 7, bits: 0});
const K_9c5d655241 = Object.freeze({name: "uint64", numpy: null, js_array: "BigUint64Array", onnx: 13, bits: 0});
const K_281e4e2922 = Object.freeze({name: "int8", numpy: null, js_array: "Int8Array", onnx: 3, bits: 0});
const K_4b66c8dee6 = Object.freeze({name: "uint8", numpy: null, js_array: "Uint8Array", onnx: 2, bits: 0});
const K_c3b1875b29 = Object.freeze({name: "int4", numpy: "int4", js_array: "Uint8Array", onnx: 3, bits: 4});
const K_3adc6d4285 = Object.freeze({name: "uint4", numpy: "uint4", js_array: "Uint8Array", onnx: 2, bits: 4});
const K_173ca94225 = $dict([["float32", K_dd1d1920c1], ["float16", K_2e8d5c8e49], ["int32", K_b117928217], ["uint32", K_b2253334a1], ["int64", K_79ba208cd5], ["uint64", K_9c5d655241], ["int8", K_281e4e2922], ["uint8", K_4b66c8dee6], ["int4", K_c3b1875b29], ["uint4", K_3adc6d4285]]);
const K_1ee0ab029c = $dict([["nchw", $T([0, 1, 2, 3])], ["nhwc", $T([0, 3, 1, 2])]]);

function calls_validate_call(opdef, call, caps) {
  let outs;
  outs = opdef.validate(call);
  if ((caps != null)) {
    calls__check_capabilities(opdef, call, outs, caps);
  }
  return outs;
}

function calls_labelled_message(call, message) {
  let msg;
  msg = ($truthy($M.startswith(message, call.op)) ? message : `${$str(call.op)}: ${$str(message)}`);
  return ($truthy(call.label) ? `[${$str(call.label)}] ${$str(msg)}` : msg);
}

function calls_call_from(op, overload, conv) {
  let args, options, spec, v;
  args = $dict([]);
  options = $dict([]);
  for (const $t1 of $iter($getitem(overload, "args"))) {
    spec = $t1;
    v = $M.get(conv, $getitem(spec, "name"));
    if ($truthy(calls_is_options(spec))) {
      options = $or(v, () => $dict([]));
    } else if (($in($getitem($getitem(spec, "type"), "t"), $T(["sequence", "frozen"])) && $eq($getitem($getitem(spec, "type"), "of"), $dict([["t", "iface"], ["name", "MLOperand"]])))) {
      $setitem(args, $getitem(spec, "name"), new $OperandList(v));
    } else {
      $setitem(args, $getitem(spec, "name"), v);
    }
  }
  return new $Call(op, args, options);
}

function calls_check_new_operand(context, kind, descriptor) {
  return context.check_operand(kind, core_check_dimensions(core_desc_from_dict(descriptor), kind));
}

function calls_check_scalar_constant(context, data_type) {
  if (($eq(data_type, "int4") || $eq(data_type, "uint4"))) {
    throw new $WebNNTypeError(`constant(): a scalar constant cannot have data type ${$str(data_type)}.`);
  }
  return calls_check_new_operand(context, "constant", $dict([["dataType", data_type], ["shape", []]]));
}

function calls_check_input_name(name, taken) {
  if (!$truthy(name)) {
    throw new $WebNNTypeError("input(): the name must not be empty.");
  }
  if ($in(name, taken)) {
    throw new $WebNNTypeError(`input(): duplicate input name '${$str(name)}'.`);
  }
}

function calls_check_dispatch(inputs, outputs, graph_inputs, graph_outputs) {
  let seen, kind, named, expected, names, want, name, t, e;
  seen = [];
  for (const $t1 of $iter($T([$T(["input", inputs, graph_inputs]), $T(["output", outputs, graph_outputs])]))) {
    const $t2 = $unpack($t1, 3);
    kind = $t2[0];
    named = $t2[1];
    expected = $t2[2];
    names = $sorted(named);
    want = $sorted(expected);
    if (!$eq(names, want)) {
      throw new $WebNNTypeError(`dispatch: ${$str(kind)} names ${$str(names)} do not match the graph's ${$str(want)}.`);
    }
    for (const $t3 of $iter(names)) {
      name = $t3;
      t = $getitem(named, name);
      if ($truthy($getitem(t, "constant"))) {
        throw new $WebNNTypeError(`dispatch: ${$str(kind)} '${$str(name)}' is a constant tensor.`);
      }
      if ($in($getitem(t, "id"), seen)) {
        throw new $WebNNTypeError(`dispatch: tensor '${$str(name)}' is used more than once.`);
      }
      $M.append(seen, $getitem(t, "id"));
      e = $getitem(expected, name);
      if ((!$eq($getitem(t, "dataType"), $getitem(e, "dataType")) || !$eq($list($getitem(t, "shape")), $list($getitem(e, "shape"))))) {
        throw new $WebNNTypeError(`dispatch: ${$str(kind)} '${$str(name)}' is ${$str($getitem(t, "dataType"))} ${$str($list($getitem(t, "shape")))}, the graph expects ${$str($getitem(e, "dataType"))} ${$str($list($getitem(e, "shape")))}.`);
      }
    }
  }
}

function calls_OperandChecks_check_operand(self_, kind, desc) {
  let lim, lo, hi, rank;
  lim = $getitem(self_._limits, kind);
  if (!$in(desc.data_type, $getitem(lim, "dataTypes"))) {
    throw new $WebNNTypeError(`${$str(kind)}(): data type ${$str(desc.data_type)} is not supported by this context.`);
  }
  const $t1 = $unpack($T([$getitem($getitem(lim, "rankRange"), "min"), $getitem($getitem(lim, "rankRange"), "max"), $len(desc.shape)]), 3);
  lo = $t1[0];
  hi = $t1[1];
  rank = $t1[2];
  if (!(($c0, $c1) => $le($c0, $c1) && $le($c1, hi))(lo, rank)) {
    throw new $WebNNTypeError(`${$str(kind)}(): rank ${$str(rank)} is outside [${$str(lo)}, ${$str(hi)}] for this context.`);
  }
  calls_OperandChecks__check_byte_length(self_, desc);
  return desc;
}

function calls_OperandChecks__check_byte_length(self_, desc) {
  if ($gt(desc.byte_length, self_.capabilities.max_tensor_byte_length)) {
    throw new $WebNNTypeError(`Tensor ${$str(desc)} exceeds maxTensorByteLength.`);
  }
}

function registry_OpDef_validate(self_, call) {
  let descs, name, d, outs, i, out, lname;
  descs = $dict([]);
  for (const $t1 of $iter(call.operands(registry__is_desc))) {
    const $t2 = $unpack($t1, 2);
    name = $t2[0];
    d = $t2[1];
    $M.setdefault(descs, name, d);
    registry_OpDef__check_limits(self_, name, d, descs);
  }
  outs = $list(self_.infer(call));
  for (const $t3 of $iter($enumerate(outs))) {
    const $t4 = $unpack($t3, 2);
    i = $t4[0];
    out = $t4[1];
    core_check_dimensions(out, "output");
    lname = $getitem(self_.outputs, $min(i, $sub($len(self_.outputs), 1)));
    if ($in(lname, self_.limits)) {
      registry_OpDef__check_limits(self_, lname, out, $dict([...$items(descs), [lname, out]]), true);
    }
  }
  return outs;
}

function unary__infer(call) {
  return [$getitem(call, "input")];
}

function binary_infer(call) {
  let a, b;
  const $t1 = $unpack($T([$getitem(call, "a"), $getitem(call, "b")]), 2);
  a = $t1[0];
  b = $t1[1];
  return [a.with_shape(core_broadcast_shapes(a.shape, b.shape))];
}

function reduction__arg_infer(call) {
  let x, axis, out_type, shape;
  x = $getitem(call, "input");
  axis = core_check_axis($getitem(call, "axis"), x.rank);
  out_type = $M.get(call, "outputDataType", "int32");
  if (!$in(out_type, $T(["int32", "int64"]))) {
    throw new $WebNNTypeError(`outputDataType must be int32 or int64, not ${$str(out_type)}.`);
  }
  if ($truthy($getitem(call, "keepDimensions"))) {
    shape = (() => { const $r = [];
  for (const $t1 of $iter($enumerate(x.shape))) { let i, d;
  const $t2 = $unpack($t1, 2);
  i = $t2[0];
  d = $t2[1];
    $r.push(($eq(i, axis) ? 1 : d));
  }
  return $r; })();
  } else {
    shape = (() => { const $r = [];
  for (const $t3 of $iter($enumerate(x.shape))) { let i, d;
  const $t4 = $unpack($t3, 2);
  i = $t4[0];
  d = $t4[1];
  if (!!$eq(i, axis)) continue;
    $r.push(d);
  }
  return $r; })();
  }
  return [x.with_type(out_type).with_shape(shape)];
}

function pool2d_infer(call) {
  let x, p;
  x = $getitem(call, "input");
  p = pool2d_parse(call, x.shape);
  return [x.with_shape(nn_join_output_shape($getitem(p, "batches"), $getitem(p, "channels"), ...$iter($getitem(p, "out_hw")), $getitem(p, "layout")))];
}

function normalization__bn_infer(call) {
  let x, axis, c, n;
  x = $getitem(call, "input");
  axis = core_check_axis($getitem(call, "axis"), x.rank);
  c = $getitem(x.shape, axis);
  for (const $t1 of $iter($T(["mean", "variance", "scale", "bias"]))) {
    n = $t1;
    normalization__check_1d(call, n, c, `input dimension along axis ${$str(axis)}`);
  }
  return [x];
}

function cast_infer(call) {
  let x;
  x = $getitem(call, "input");
  return [x.with_type($getitem(call, "dataType"))];
}

function clamp_infer(call) {
  let x, lo, hi;
  x = $getitem(call, "input");
  const $t1 = $unpack(clamp_bounds(call, x.data_type), 2);
  lo = $t1[0];
  hi = $t1[1];
  if (((lo != null) && (hi != null) && $gt(lo, hi))) {
    throw new $WebNNTypeError(`minValue must not be greater than maxValue (both cast to ${$str(x.data_type)}).`);
  }
  return [x];
}

function concat_infer(call) {
  let inputs, axis, first, size, i, x, d, shape;
  const $t1 = $unpack($T([$list($getitem(call, "inputs")), $getitem(call, "axis")]), 2);
  inputs = $t1[0];
  axis = $t1[1];
  if (!(($c0, $c1) => $le($c0, $c1) && $le($c1, 8192))(1, $len(inputs))) {
    throw new $WebNNTypeError(`${$str($len(inputs))} inputs given; 1 to ${$str(8192)} are allowed.`);
  }
  first = $getitem(inputs, 0);
  if ($ge(axis, first.rank)) {
    throw new $WebNNTypeError(`axis ${$str(axis)} must be less than the inputs' rank ${$str(first.rank)}.`);
  }
  size = $getitem(first.shape, axis);
  for (const $t2 of $iter($enumerate($slice(inputs, 1, null, null), 1))) {
    const $t3 = $unpack($t2, 2);
    i = $t3[0];
    x = $t3[1];
    if (!$eq(x.data_type, first.data_type)) {
      throw new $WebNNTypeError(`inputs[${$str(i)}] data type ${$str(x.data_type)} differs from inputs[0] (${$str(first.data_type)}).`);
    }
    if (!$eq(x.rank, first.rank)) {
      throw new $WebNNTypeError(`inputs[${$str(i)}] rank ${$str(x.rank)} differs from inputs[0] (${$str(first.rank)}).`);
    }
    for (const $t4 of $iter($range(first.rank))) {
      d = $t4;
      if ((!$eq(d, axis) && !$eq($getitem(x.shape, d), $getitem(first.shape, d)))) {
        throw new $WebNNTypeError(`inputs[${$str(i)}] shape ${$str($list(x.shape))} differs from inputs[0] ${$str($list(first.shape))} outside axis ${$str(axis)}.`);
      }
    }
    size = $add(size, $getitem(x.shape, axis));
    if ($gt(size, 2147483647)) {
      throw new $WebNNTypeError(`the concatenated axis size ${$str(size)} is not a valid dimension.`);
    }
  }
  shape = $list(first.shape);
  $setitem(shape, axis, size);
  return [first.with_shape(shape)];
}

function conv2d_infer(call) {
  let x, f, bias, p, shape;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "filter"), $getitem(call, "bias")]), 3);
  x = $t1[0];
  f = $t1[1];
  bias = $t1[2];
  p = conv2d_parse(call, x.shape, f.shape);
  if (((bias != null) && !$eq(bias.shape, $T([$getitem(p, "out_channels")])))) {
    throw new $WebNNTypeError(`bias shape ${$str($list(bias.shape))} must be [${$str($getitem(p, "out_channels"))}].`);
  }
  shape = nn_join_output_shape($getitem(p, "batches"), $getitem(p, "out_channels"), ...$iter($getitem(p, "out_hw")), $getitem(p, "layout"));
  return [x.with_shape(shape)];
}

function conv_transpose2d__infer(call) {
  let x, f, g, oh, ow, shape;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "filter")]), 2);
  x = $t1[0];
  f = $t1[1];
  g = conv_transpose2d__geometry(call, x.shape, f.shape);
  const $t2 = $unpack($getitem(g, "out_hw"), 2);
  oh = $t2[0];
  ow = $t2[1];
  shape = ($eq($getitem(g, "layout"), "nchw") ? $T([$getitem(g, "n"), $getitem(g, "oc"), oh, ow]) : $T([$getitem(g, "n"), oh, ow, $getitem(g, "oc")]));
  return [x.with_shape(shape)];
}

function reduction__cumsum_infer(call) {
  let x;
  x = $getitem(call, "input");
  core_check_axis($getitem(call, "axis"), x.rank);
  return [x];
}

function quantization__dq_infer(call) {
  let x, scale, zp;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "scale"), $getitem(call, "zeroPoint")]), 3);
  x = $t1[0];
  scale = $t1[1];
  zp = $t1[2];
  quantization__check_params(x, scale, zp);
  return [x.with_type(scale.data_type)];
}

function activation__infer(call) {
  return [$getitem(call, "input")];
}

function logical__infer_binary(call) {
  let a, b;
  const $t1 = $unpack($T([$getitem(call, "a"), $getitem(call, "b")]), 2);
  a = $t1[0];
  b = $t1[1];
  return [a.with_type("uint8").with_shape(core_broadcast_shapes(a.shape, b.shape))];
}

function movement__expand_infer(call) {
  let x, new_, shape;
  x = $getitem(call, "input");
  new_ = movement__check_shape($getitem(call, "newShape"), "newShape");
  try {
    shape = core_broadcast_shapes(new_, x.shape, false);
  } catch ($t1) {
    if (!($t1 instanceof $WebNNTypeError)) throw $t1;
    throw new $WebNNTypeError(`input shape ${$str($list(x.shape))} cannot be broadcast to newShape ${$str($list(new_))}.`);
  }
  return [x.with_shape(shape)];
}

function movement__gather_infer(call) {
  let x, idx, axis;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "indices")]), 2);
  x = $t1[0];
  idx = $t1[1];
  axis = core_check_axis($getitem(call, "axis"), x.rank);
  return [x.with_shape($add($add($slice(x.shape, null, axis, null), idx.shape), $slice(x.shape, $add(axis, 1), null, null)))];
}

function movement__gather_el_infer(call) {
  let x, idx, axis, i, a, b;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "indices")]), 2);
  x = $t1[0];
  idx = $t1[1];
  axis = core_check_axis($getitem(call, "axis"), x.rank);
  for (const $t2 of $iter($enumerate($zip(x.shape, idx.shape)))) {
    const $t3 = $unpack($t2, 2);
    i = $t3[0];
    const $t4 = $unpack($t3[1], 2);
    a = $t4[0];
    b = $t4[1];
    if ((!$eq(i, axis) && !$eq(a, b))) {
      throw new $WebNNTypeError(`indices shape ${$str($list(idx.shape))} must match input shape ${$str($list(x.shape))} except along axis ${$str(axis)}.`);
    }
  }
  return [x.with_shape(idx.shape)];
}

function movement__gather_nd_infer(call) {
  let x, idx, k;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "indices")]), 2);
  x = $t1[0];
  idx = $t1[1];
  k = $getitem(idx.shape, $neg(1));
  if ($gt(k, x.rank)) {
    throw new $WebNNTypeError(`indices' last dimension ${$str(k)} exceeds the input rank ${$str(x.rank)}.`);
  }
  return [x.with_shape($add($slice(idx.shape, null, $neg(1), null), $slice(x.shape, k, null, null)))];
}

function gemm_infer(call) {
  let a, b, c, shape;
  const $t1 = $unpack($T([$getitem(call, "a"), $getitem(call, "b"), $getitem(call, "c")]), 3);
  a = $t1[0];
  b = $t1[1];
  c = $t1[2];
  shape = gemm_output_shape(call, a.shape, b.shape);
  if ((c != null)) {
    try {
      core_broadcast_shapes(shape, c.shape, false);
    } catch ($t2) {
      if (!($t2 instanceof $WebNNTypeError)) throw $t2;
      throw new $WebNNTypeError(`c shape ${$str($list(c.shape))} is not broadcastable to ${$str($list(shape))}.`);
    }
  }
  return [a.with_shape(shape)];
}

function rnn__gru_infer(call) {
  let x, steps, hidden, b, d, outs;
  const $t1 = $unpack(rnn__seq_common(call, 3), 5);
  x = $t1[0];
  steps = $t1[1];
  hidden = $t1[2];
  b = $t1[3];
  d = $t1[4];
  rnn__acts(call, 2, $T(["sigmoid", "tanh"]));
  outs = [x.with_shape($T([d, b, hidden]))];
  if ($truthy($getitem(call, "returnSequence"))) {
    $M.append(outs, x.with_shape($T([steps, d, b, hidden])));
  }
  return outs;
}

function rnn__gru_cell_infer(call) {
  let x, hidden, b, i;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "hiddenSize")]), 2);
  x = $t1[0];
  hidden = $t1[1];
  rnn__check_hidden(hidden);
  const $t2 = $unpack(x.shape, 2);
  b = $t2[0];
  i = $t2[1];
  rnn__acts(call, 2, $T(["sigmoid", "tanh"]));
  rnn__expect(call, "weight", $T([$mul(3, hidden), i]));
  rnn__expect(call, "recurrentWeight", $T([$mul(3, hidden), hidden]));
  rnn__expect(call, "hiddenState", $T([b, hidden]));
  rnn__expect(call, "bias", $T([$mul(3, hidden)]));
  rnn__expect(call, "recurrentBias", $T([$mul(3, hidden)]));
  return [x.with_shape($T([b, hidden]))];
}

function normalization__in_infer(call) {
  let x, c_axis, _, n;
  x = $getitem(call, "input");
  const $t1 = $unpack(normalization__in_axes($M.get(call, "layout", "nchw")), 2);
  c_axis = $t1[0];
  _ = $t1[1];
  for (const $t2 of $iter($T(["scale", "bias"]))) {
    n = $t2;
    normalization__check_1d(call, n, $getitem(x.shape, c_axis), "the input's channel count");
  }
  return [x];
}

function logical__infer_unary(call) {
  return [$getitem(call, "a").with_type("uint8")];
}

function normalization__ln_infer(call) {
  let x, axes, expected, n, d;
  x = $getitem(call, "input");
  axes = core_check_axes(normalization__ln_axes(call, x.rank), x.rank);
  expected = $tuple((() => { const $r = [];
  for (const $t1 of $iter(axes)) { let a;
  a = $t1;
    $r.push($getitem(x.shape, a));
  }
  return $r; })());
  for (const $t2 of $iter($T(["scale", "bias"]))) {
    n = $t2;
    d = $getitem(call, n);
    if (((d != null) && !$eq(d.shape, expected))) {
      throw new $WebNNTypeError(`${$str(n)} shape ${$str($list(d.shape))} must be ${$str($list(expected))} (input dimensions at axes).`);
    }
  }
  return [x];
}

function rnn__lstm_infer(call) {
  let x, steps, hidden, b, d, outs;
  const $t1 = $unpack(rnn__seq_common(call, 4), 5);
  x = $t1[0];
  steps = $t1[1];
  hidden = $t1[2];
  b = $t1[3];
  d = $t1[4];
  rnn__acts(call, 3, $T(["sigmoid", "tanh", "tanh"]));
  rnn__expect(call, "peepholeWeight", $T([d, $mul(3, hidden)]));
  rnn__expect(call, "initialCellState", $T([d, b, hidden]));
  outs = [x.with_shape($T([d, b, hidden])), x.with_shape($T([d, b, hidden]))];
  if ($truthy($getitem(call, "returnSequence"))) {
    $M.append(outs, x.with_shape($T([steps, d, b, hidden])));
  }
  return outs;
}

function rnn__lstm_cell_infer(call) {
  let x, hidden, b, i;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "hiddenSize")]), 2);
  x = $t1[0];
  hidden = $t1[1];
  rnn__check_hidden(hidden);
  const $t2 = $unpack(x.shape, 2);
  b = $t2[0];
  i = $t2[1];
  rnn__acts(call, 3, $T(["sigmoid", "tanh", "tanh"]));
  rnn__expect(call, "weight", $T([$mul(4, hidden), i]));
  rnn__expect(call, "recurrentWeight", $T([$mul(4, hidden), hidden]));
  rnn__expect(call, "hiddenState", $T([b, hidden]));
  rnn__expect(call, "cellState", $T([b, hidden]));
  rnn__expect(call, "bias", $T([$mul(4, hidden)]));
  rnn__expect(call, "recurrentBias", $T([$mul(4, hidden)]));
  rnn__expect(call, "peepholeWeight", $T([$mul(3, hidden)]));
  return [x.with_shape($T([b, hidden])), x.with_shape($T([b, hidden]))];
}

function matmul_infer(call) {
  let a, b, batch;
  const $t1 = $unpack($T([$getitem(call, "a"), $getitem(call, "b")]), 2);
  a = $t1[0];
  b = $t1[1];
  if (($lt(a.rank, 2) || $lt(b.rank, 2))) {
    throw new $WebNNTypeError(`a (rank ${$str(a.rank)}) and b (rank ${$str(b.rank)}) must both have rank >= 2.`);
  }
  if (!$eq($getitem(a.shape, $neg(1)), $getitem(b.shape, $neg(2)))) {
    throw new $WebNNTypeError(`a's columns (${$str($getitem(a.shape, $neg(1)))}) must equal b's rows (${$str($getitem(b.shape, $neg(2)))}).`);
  }
  batch = core_broadcast_shapes($slice(a.shape, null, $neg(2), null), $slice(b.shape, null, $neg(2), null));
  return [a.with_shape($add(batch, $T([$getitem(a.shape, $neg(2)), $getitem(b.shape, $neg(1))])))];
}

function movement__pad_infer(call) {
  let x, b, e, what, seq, mode, i, d, p, q;
  x = $getitem(call, "input");
  const $t1 = $unpack($T([$list($getitem(call, "beginningPadding")), $list($getitem(call, "endingPadding"))]), 2);
  b = $t1[0];
  e = $t1[1];
  for (const $t2 of $iter($T([$T(["beginningPadding", b]), $T(["endingPadding", e])]))) {
    const $t3 = $unpack($t2, 2);
    what = $t3[0];
    seq = $t3[1];
    if (!$eq($len(seq), x.rank)) {
      throw new $WebNNTypeError(`${$str(what)} has length ${$str($len(seq))}; it must equal the input rank ${$str(x.rank)}.`);
    }
  }
  mode = $M.get(call, "mode", "constant");
  if ($eq(mode, "reflection")) {
    for (const $t4 of $iter($enumerate($zip(x.shape, b, e)))) {
      const $t5 = $unpack($t4, 2);
      i = $t5[0];
      const $t6 = $unpack($t5[1], 3);
      d = $t6[0];
      p = $t6[1];
      q = $t6[2];
      if (($ge(p, d) || $ge(q, d))) {
        throw new $WebNNTypeError(`reflection padding along axis ${$str(i)} must be smaller than the dimension ${$str(d)}.`);
      }
    }
  }
  return [x.with_shape(movement__check_shape((() => { const $r = [];
  for (const $t7 of $iter($zip(x.shape, b, e))) { let d, p, q;
  const $t8 = $unpack($t7, 3);
  d = $t8[0];
  p = $t8[1];
  q = $t8[2];
    $r.push($add($add(p, d), q));
  }
  return $r; })()))];
}

function activation__prelu_infer(call) {
  let x, s;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "slope")]), 2);
  x = $t1[0];
  s = $t1[1];
  try {
    core_broadcast_shapes(x.shape, s.shape, false);
  } catch ($t2) {
    if (!($t2 instanceof $WebNNTypeError)) throw $t2;
    throw new $WebNNTypeError(`slope shape ${$str($list(s.shape))} is not broadcastable to input shape ${$str($list(x.shape))}.`);
  }
  return [x];
}

function quantization__q_infer(call) {
  let x, scale, zp;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "scale"), $getitem(call, "zeroPoint")]), 3);
  x = $t1[0];
  scale = $t1[1];
  zp = $t1[2];
  quantization__check_params(x, scale, zp);
  return [x.with_type(zp.data_type)];
}

function reduction__reduce_infer(call) {
  let x, axes, keep, shape;
  x = $getitem(call, "input");
  axes = core_check_axes(reduction__axes(call, x.rank), x.rank);
  keep = $truthy($getitem(call, "keepDimensions"));
  shape = ($truthy(keep) ? (() => { const $r = [];
  for (const $t1 of $iter($enumerate(x.shape))) { let i, d;
  const $t2 = $unpack($t1, 2);
  i = $t2[0];
  d = $t2[1];
    $r.push(($in(i, axes) ? 1 : d));
  }
  return $r; })() : (() => { const $r = [];
  for (const $t3 of $iter($enumerate(x.shape))) { let i, d;
  const $t4 = $unpack($t3, 2);
  i = $t4[0];
  d = $t4[1];
  if (!!$in(i, axes)) continue;
    $r.push(d);
  }
  return $r; })());
  return [x.with_shape(shape)];
}

function resample2d__infer(call) {
  let x, _, shape;
  x = $getitem(call, "input");
  const $t1 = $unpack(resample2d__plan(call, x.shape), 3);
  _ = $t1[0];
  _ = $t1[1];
  shape = $t1[2];
  return [x.with_shape(shape)];
}

function reshape_infer(call) {
  let x, new_shape, d;
  const $t2 = $unpack($T([$getitem(call, "input"), (() => { const $r = [];
  for (const $t1 of $iter($getitem(call, "newShape"))) { let d;
  d = $t1;
    $r.push($int(d));
  }
  return $r; })()]), 2);
  x = $t2[0];
  new_shape = $t2[1];
  for (const $t3 of $iter(new_shape)) {
    d = $t3;
    if (!(($c0, $c1) => $lt($c0, $c1) && $le($c1, 2147483647))(0, d)) {
      throw new $WebNNTypeError(`newShape ${$str(new_shape)} has an invalid dimension ${$str(d)}.`);
    }
  }
  if (!$eq($prod(new_shape), x.size)) {
    throw new $WebNNTypeError(`newShape ${$str(new_shape)} has ${$str($prod(new_shape))} elements, the input ${$str($list(x.shape))} has ${$str(x.size)}.`);
  }
  return [x.with_shape(new_shape)];
}

function movement__reverse_infer(call) {
  let x;
  x = $getitem(call, "input");
  core_check_axes(movement__reverse_axes(call, x.rank), x.rank);
  return [x];
}

function movement__scatter_el_infer(call) {
  let x, idx, upd, axis, i, a, b;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "indices"), $getitem(call, "updates")]), 3);
  x = $t1[0];
  idx = $t1[1];
  upd = $t1[2];
  axis = core_check_axis($getitem(call, "axis"), x.rank);
  if (!$eq(upd.shape, idx.shape)) {
    throw new $WebNNTypeError(`updates shape ${$str($list(upd.shape))} must equal indices shape ${$str($list(idx.shape))}.`);
  }
  for (const $t2 of $iter($enumerate($zip(x.shape, idx.shape)))) {
    const $t3 = $unpack($t2, 2);
    i = $t3[0];
    const $t4 = $unpack($t3[1], 2);
    a = $t4[0];
    b = $t4[1];
    if ((!$eq(i, axis) && !$eq(a, b))) {
      throw new $WebNNTypeError(`indices shape ${$str($list(idx.shape))} must match input shape ${$str($list(x.shape))} except along axis ${$str(axis)}.`);
    }
  }
  return [x];
}

function movement__scatter_nd_infer(call) {
  let x, idx, upd, k, expected;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "indices"), $getitem(call, "updates")]), 3);
  x = $t1[0];
  idx = $t1[1];
  upd = $t1[2];
  k = $getitem(idx.shape, $neg(1));
  if ($gt(k, x.rank)) {
    throw new $WebNNTypeError(`indices' last dimension ${$str(k)} exceeds the input rank ${$str(x.rank)}.`);
  }
  expected = $add($slice(idx.shape, null, $neg(1), null), $slice(x.shape, k, null, null));
  if (!$eq(upd.shape, expected)) {
    throw new $WebNNTypeError(`updates shape ${$str($list(upd.shape))} must be ${$str($list(expected))}.`);
  }
  return [x];
}

function movement__slice_infer(call) {
  let x, starts, sizes, strides, what, seq, shape, i, d, s, n, st;
  x = $getitem(call, "input");
  const $t1 = $unpack($T([$list($getitem(call, "starts")), $list($getitem(call, "sizes"))]), 2);
  starts = $t1[0];
  sizes = $t1[1];
  strides = (($getitem(call, "strides") != null) ? $list($getitem(call, "strides")) : $mul([1], x.rank));
  for (const $t2 of $iter($T([$T(["starts", starts]), $T(["sizes", sizes]), $T(["strides", strides])]))) {
    const $t3 = $unpack($t2, 2);
    what = $t3[0];
    seq = $t3[1];
    if (!$eq($len(seq), x.rank)) {
      throw new $WebNNTypeError(`${$str(what)} has length ${$str($len(seq))}; it must equal the input rank ${$str(x.rank)}.`);
    }
  }
  shape = [];
  for (const $t4 of $iter($enumerate($zip(x.shape, starts, sizes, strides)))) {
    const $t5 = $unpack($t4, 2);
    i = $t5[0];
    const $t6 = $unpack($t5[1], 4);
    d = $t6[0];
    s = $t6[1];
    n = $t6[2];
    st = $t6[3];
    if ($eq(n, 0)) {
      throw new $WebNNTypeError(`sizes[${$str(i)}] must not be 0.`);
    }
    if ($lt(st, 1)) {
      throw new $WebNNTypeError(`strides[${$str(i)}] must be at least 1.`);
    }
    if ($ge(s, d)) {
      throw new $WebNNTypeError(`starts[${$str(i)}]=${$str(s)} is out of range for dimension ${$str(d)}.`);
    }
    if ($gt($add(s, n), d)) {
      throw new $WebNNTypeError(`starts[${$str(i)}]+sizes[${$str(i)}]=${$str($add(s, n))} exceeds dimension ${$str(d)}.`);
    }
    $M.append(shape, $neg($floordiv($neg(n), st)));
  }
  return [x.with_shape(shape)];
}

function softmax_infer(call) {
  let x, axis;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "axis")]), 2);
  x = $t1[0];
  axis = $t1[1];
  if ($ge(axis, x.rank)) {
    throw new $WebNNTypeError(`axis ${$str(axis)} must be less than the input rank ${$str(x.rank)}.`);
  }
  return [x];
}

function movement__split_infer(call) {
  let x, axis, sizes;
  x = $getitem(call, "input");
  axis = core_check_axis($getitem(call, "axis"), x.rank);
  sizes = movement__split_sizes(call, $getitem(x.shape, axis));
  if ($gt($len(sizes), 8192)) {
    throw new $WebNNTypeError(`split would create ${$str($len(sizes))} outputs; at most ${$str(8192)} are allowed.`);
  }
  return (() => { const $r = [];
  for (const $t1 of $iter(sizes)) { let s;
  s = $t1;
    $r.push(x.with_shape($add($add($slice(x.shape, null, axis, null), $T([s])), $slice(x.shape, $add(axis, 1), null, null))));
  }
  return $r; })();
}

function movement__tile_infer(call) {
  let x, reps;
  x = $getitem(call, "input");
  reps = $list($getitem(call, "repetitions"));
  if (!$eq($len(reps), x.rank)) {
    throw new $WebNNTypeError(`repetitions has length ${$str($len(reps))}; it must equal the input rank ${$str(x.rank)}.`);
  }
  if ($truthy($any((() => { const $r = [];
  for (const $t1 of $iter(reps)) { let r;
  r = $t1;
    $r.push($eq(r, 0));
  }
  return $r; })()))) {
    throw new $WebNNTypeError("repetitions values must be greater than 0.");
  }
  return [x.with_shape(movement__check_shape((() => { const $r = [];
  for (const $t2 of $iter($zip(x.shape, reps))) { let d, r;
  const $t3 = $unpack($t2, 2);
  d = $t3[0];
  r = $t3[1];
    $r.push($mul(d, r));
  }
  return $r; })()))];
}

function transpose_infer(call) {
  let x, perm;
  x = $getitem(call, "input");
  perm = transpose_permutation(call, x.rank);
  return [x.with_shape((() => { const $r = [];
  for (const $t1 of $iter(perm)) { let p;
  p = $t1;
    $r.push($getitem(x.shape, p));
  }
  return $r; })())];
}

function movement__tri_infer(call) {
  return [$getitem(call, "input")];
}

function logical__where_infer(call) {
  let c, t, f, shape;
  const $t1 = $unpack($T([$getitem(call, "condition"), $getitem(call, "trueValue"), $getitem(call, "falseValue")]), 3);
  c = $t1[0];
  t = $t1[1];
  f = $t1[2];
  shape = core_broadcast_shapes(core_broadcast_shapes(c.shape, t.shape), f.shape);
  return [t.with_shape(shape)];
}

function calls__check_capabilities(opdef, call, outs, caps) {
  let limits, named, name, d, lim, lo, hi;
  limits = $M.get(caps.ops, opdef.name);
  if ((limits == null)) {
    throw new $WebNNTypeError(`${$str(opdef.name)} is not supported by this context.`);
  }
  named = $list(call.operands(calls__is_desc));
  named = $add(named, (() => { const $r = [];
  for (const $t1 of $iter($enumerate(outs))) { let i, d;
  const $t2 = $unpack($t1, 2);
  i = $t2[0];
  d = $t2[1];
    $r.push($T([$getitem(opdef.outputs, $min(i, $sub($len(opdef.outputs), 1))), d]));
  }
  return $r; })());
  for (const $t3 of $iter(named)) {
    const $t4 = $unpack($t3, 2);
    name = $t4[0];
    d = $t4[1];
    lim = $M.get(limits, name);
    if (((lim == null) || (lim.same != null))) {
      continue;
    }
    if (!$in(d.data_type, lim.types)) {
      throw new $WebNNTypeError(`operand '${$str(name)}' data type ${$str(d.data_type)} is not supported by this context.`);
    }
    const $t5 = $unpack(lim.ranks, 2);
    lo = $t5[0];
    hi = $t5[1];
    if (($lt(d.rank, lo) || $gt(d.rank, ((hi == null) ? caps.max_rank : hi)))) {
      throw new $WebNNTypeError(`operand '${$str(name)}' rank ${$str(d.rank)} is not supported by this context.`);
    }
  }
  for (const $t6 of $iter(outs)) {
    d = $t6;
    core_check_dimensions(d, `${$str(opdef.name)} output`, caps.max_rank, caps.max_tensor_byte_length);
  }
}

function calls_is_options(spec) {
  return $and($eq($getitem($getitem(spec, "type"), "t"), "dict"), () => $eq($getitem(spec, "name"), "options"));
}

function core_desc_from_dict(obj, what = "descriptor") {
  return new $Desc($getitem(obj, "dataType"), $tuple((() => { const $r = [];
  for (const $t1 of $iter($getitem(obj, "shape"))) { let s;
  s = $t1;
    $r.push($int(s));
  }
  return $r; })()));
}

function core_check_dimensions(desc, what = "operand", max_rank = null, max_byte_length = null) {
  let count, d;
  core_data_type(desc.data_type);
  if (((max_rank != null) && $gt(desc.rank, max_rank))) {
    throw new $WebNNTypeError(`Invalid ${$str(what)} shape ${$str(core_shape_text(desc.shape))}: rank ${$str(desc.rank)} exceeds the maximum ${$str(max_rank)}.`);
  }
  count = 1;
  for (const $t1 of $iter(desc.shape)) {
    d = $t1;
    if ((!$truthy(($isint(d))) || $le(d, 0) || $gt(d, 2147483647))) {
      throw new $WebNNTypeError(`Invalid ${$str(what)} shape ${$str(core_shape_text(desc.shape))}: dimensions must be in 1..2^31-1.`);
    }
    count = $mul(count, d);
    if ($gt(count, 2147483647)) {
      throw new $WebNNTypeError(`Invalid ${$str(what)} shape ${$str(core_shape_text(desc.shape))}: element count exceeds 2^31-1.`);
    }
  }
  if (((max_byte_length != null) && $gt(desc.byte_length, max_byte_length))) {
    throw new $WebNNTypeError(`Invalid ${$str(what)} ${$str(desc)}: byte length ${$str(desc.byte_length)} exceeds maxTensorByteLength ${$str(max_byte_length)}.`);
  }
  return desc;
}

function registry__is_desc(v) {
  return ($isdesc(v));
}

function registry_OpDef__check_limits(self_, name, d, descs, output = false) {
  let lim, what, lo, hi;
  lim = $M.get(self_.limits, name);
  if ((lim == null)) {
    return null;
  }
  what = `${$str(self_.name)}: ${$str(($truthy(output) ? "output" : "operand"))} '${$str(name)}'`;
  if (((lim.same != null) && $in(lim.same, descs))) {
    if (!$eq(d.data_type, $getitem(descs, lim.same).data_type)) {
      throw new $WebNNTypeError(`${$str(what)} has data type ${$str(d.data_type)}, which must match '${$str(lim.same)}' (${$str($getitem(descs, lim.same).data_type)}).`);
    }
  } else if (((lim.same == null) && !$in(d.data_type, lim.types))) {
    throw new $WebNNTypeError(`${$str(what)} has unsupported data type ${$str(d.data_type)}; allowed: ${$str($M.join(", ", lim.types))}.`);
  }
  if (((lim.same_rank != null) && $in(lim.same_rank, descs) && !$eq(lim.same_rank, name))) {
    if (!$eq(d.rank, $getitem(descs, lim.same_rank).rank)) {
      throw new $WebNNTypeError(`${$str(what)} has rank ${$str(d.rank)}, which must match '${$str(lim.same_rank)}'.`);
    }
  }
  const $t1 = $unpack(lim.ranks, 2);
  lo = $t1[0];
  hi = $t1[1];
  if (($lt(d.rank, lo) || ((hi != null) && $gt(d.rank, hi)))) {
    throw new $WebNNTypeError(`${$str(what)} has rank ${$str(d.rank)}; allowed ranks are ${$str(lo)}..${$str(((hi == null) ? "N" : hi))}.`);
  }
}

function core_broadcast_shapes(a, b, bidirectional = true) {
  let ra, rb, out, i, da, db;
  const $t1 = $unpack($T([$len(a), $len(b)]), 2);
  ra = $t1[0];
  rb = $t1[1];
  out = [];
  for (const $t2 of $iter($range($max(ra, rb)))) {
    i = $t2;
    da = ($lt(i, ra) ? $getitem(a, $sub($sub(ra, 1), i)) : 1);
    db = ($lt(i, rb) ? $getitem(b, $sub($sub(rb, 1), i)) : 1);
    if (($eq(da, db) || $eq(db, 1))) {
      $M.append(out, da);
    } else if (($eq(da, 1) && $truthy(bidirectional))) {
      $M.append(out, db);
    } else {
      throw new $WebNNTypeError(`Shapes ${$str($list(a))} and ${$str($list(b))} are not broadcastable.`);
    }
  }
  if ((!$truthy(bidirectional) && !$eq($len(out), ra))) {
    throw new $WebNNTypeError(`Shape ${$str($list(b))} cannot be broadcast to ${$str($list(a))}.`);
  }
  return $tuple($reversed(out));
}

function core_check_axis(axis, rank, what = "axis") {
  if (!(($c0, $c1) => $le($c0, $c1) && $lt($c1, rank))(0, axis)) {
    throw new $WebNNTypeError(`${$str(what)} ${$str(axis)} is out of range for rank ${$str(rank)}.`);
  }
  return axis;
}

function pool2d_parse(call, input_shape) {
  let layout, batches, channels, in_h, in_w, window, padding, strides, output_sizes, dilations, fh, ch, fw, cw, out_h, out_w;
  layout = $M.get(call, "layout", "nchw");
  const $t1 = $unpack(nn_split_input_shape(input_shape, layout), 4);
  batches = $t1[0];
  channels = $t1[1];
  in_h = $t1[2];
  in_w = $t1[3];
  window = nn_option_list($getitem(call, "windowDimensions"), $T([in_h, in_w]), 2, "windowDimensions", true);
  padding = nn_option_list($getitem(call, "padding"), $T([0, 0, 0, 0]), 4, "padding");
  strides = nn_option_list($getitem(call, "strides"), $T([1, 1]), 2, "strides", true);
  output_sizes = $getitem(call, "outputSizes");
  if ((output_sizes != null)) {
    output_sizes = nn_option_list(output_sizes, $T([]), 2, "outputSizes");
  }
  dilations = nn_option_list($getitem(call, "dilations"), $T([1, 1]), 2, "dilations", true);
  const $t2 = $unpack(nn_conv_output_size(in_h, $getitem(window, 0), $getitem(padding, 0), $getitem(padding, 1), $getitem(strides, 0), $getitem(dilations, 0)), 2);
  fh = $t2[0];
  ch = $t2[1];
  const $t3 = $unpack(nn_conv_output_size(in_w, $getitem(window, 1), $getitem(padding, 2), $getitem(padding, 3), $getitem(strides, 1), $getitem(dilations, 1)), 2);
  fw = $t3[0];
  cw = $t3[1];
  if ((output_sizes != null)) {
    const $t4 = $unpack(output_sizes, 2);
    out_h = $t4[0];
    out_w = $t4[1];
    if (!($eq($T([out_h, out_w]), $T([fh, fw])) || $eq($T([out_h, out_w]), $T([ch, cw])))) {
      throw new $WebNNTypeError(`outputSizes ${$str(output_sizes)} must be the floor (${$str([fh, fw])}) or ceil (${$str([ch, cw])}) output sizes.`);
    }
  } else if ($in("ceil", $T([$M.get(call, "outputShapeRounding", "floor"), $M.get(call, "roundingType", "floor")]))) {
    const $t5 = $unpack($T([ch, cw]), 2);
    out_h = $t5[0];
    out_w = $t5[1];
  } else {
    const $t6 = $unpack($T([fh, fw]), 2);
    out_h = $t6[0];
    out_w = $t6[1];
  }
  nn_check_output_sizes(out_h, out_w, call.op);
  return $dict([["layout", layout], ["batches", batches], ["channels", channels], ["in_hw", $T([in_h, in_w])], ["window", window], ["padding", padding], ["strides", strides], ["dilations", dilations], ["out_hw", $T([out_h, out_w])]]);
}

function nn_join_output_shape(batches, channels, height, width, layout) {
  if ($eq(layout, "nchw")) {
    return $T([batches, channels, height, width]);
  }
  return $T([batches, height, width, channels]);
}

function normalization__check_1d(call, name, size, what) {
  let d;
  d = $getitem(call, name);
  if (((d != null) && !$eq(d.shape, $T([size])))) {
    throw new $WebNNTypeError(`${$str(name)} shape ${$str($list(d.shape))} must be [${$str(size)}] (${$str(what)}).`);
  }
}

function clamp_bounds(call, data_type) {
  let cast;
  cast = function (v) {
    let c;
    if ((v == null)) {
      return null;
    }
    c = $cast_number(v, data_type);
    return (!$eq(c, c) ? null : c);
  };
  return $T([cast($getitem(call, "minValue")), cast($getitem(call, "maxValue"))]);
}

function conv2d_parse(call, input_shape, filter_shape) {
  let padding, strides, dilations, groups, layout, filter_layout, batches, in_channels, in_h, in_w, o, i, h, w, out_channels, filter_in, kh, kw, out_h, out_w;
  padding = nn_option_list($getitem(call, "padding"), $T([0, 0, 0, 0]), 4, "padding");
  strides = nn_option_list($getitem(call, "strides"), $T([1, 1]), 2, "strides", true);
  dilations = nn_option_list($getitem(call, "dilations"), $T([1, 1]), 2, "dilations", true);
  groups = $M.get(call, "groups", 1);
  if ($eq(groups, 0)) {
    throw new $WebNNTypeError("groups must not be 0.");
  }
  layout = $M.get(call, "inputLayout", "nchw");
  filter_layout = $M.get(call, "filterLayout", "oihw");
  const $t1 = $unpack(nn_split_input_shape(input_shape, layout), 4);
  batches = $t1[0];
  in_channels = $t1[1];
  in_h = $t1[2];
  in_w = $t1[3];
  const $t2 = $unpack($getitem(K_eb180c2376, filter_layout), 4);
  o = $t2[0];
  i = $t2[1];
  h = $t2[2];
  w = $t2[3];
  const $t3 = $unpack($T([$getitem(filter_shape, o), $getitem(filter_shape, i), $getitem(filter_shape, h), $getitem(filter_shape, w)]), 4);
  out_channels = $t3[0];
  filter_in = $t3[1];
  kh = $t3[2];
  kw = $t3[3];
  if ($truthy($mod(in_channels, groups))) {
    throw new $WebNNTypeError(`input channels ${$str(in_channels)} are not divisible by groups ${$str(groups)}.`);
  }
  if (!$eq($floordiv(in_channels, groups), filter_in)) {
    throw new $WebNNTypeError(`input channels / groups (${$str(in_channels)} / ${$str(groups)}) must equal the filter's input channels ${$str(filter_in)}.`);
  }
  if ($truthy($mod(out_channels, groups))) {
    throw new $WebNNTypeError(`output channels ${$str(out_channels)} are not divisible by groups ${$str(groups)}.`);
  }
  out_h = $getitem(nn_conv_output_size(in_h, kh, $getitem(padding, 0), $getitem(padding, 1), $getitem(strides, 0), $getitem(dilations, 0)), 0);
  out_w = $getitem(nn_conv_output_size(in_w, kw, $getitem(padding, 2), $getitem(padding, 3), $getitem(strides, 1), $getitem(dilations, 1)), 0);
  nn_check_output_sizes(out_h, out_w, "conv2d");
  return $dict([["padding", padding], ["strides", strides], ["dilations", dilations], ["groups", groups], ["layout", layout], ["filter_layout", filter_layout], ["batches", batches], ["in_channels", in_channels], ["out_channels", out_channels], ["window", $T([kh, kw])], ["out_hw", $T([out_h, out_w])]]);
}

function conv_transpose2d__geometry(call, in_shape, f_shape) {
  let layout, flayout, n, c, h, w, fi, fo, kh, kw, pad, strides, dil, out_pad, groups, i, base, sizes, out_hw, oc, bias;
  layout = $M.get(call, "inputLayout", "nchw");
  flayout = $M.get(call, "filterLayout", "iohw");
  const $t1 = $unpack(($eq(layout, "nchw") ? in_shape : $T([$getitem(in_shape, 0), $getitem(in_shape, 3), $getitem(in_shape, 1), $getitem(in_shape, 2)])), 4);
  n = $t1[0];
  c = $t1[1];
  h = $t1[2];
  w = $t1[3];
  const $t3 = $unpack((() => { const $r = [];
  for (const $t2 of $iter($getitem(K_99b977ae70, flayout))) { let p;
  p = $t2;
    $r.push($getitem(f_shape, p));
  }
  return $r; })(), 4);
  fi = $t3[0];
  fo = $t3[1];
  kh = $t3[2];
  kw = $t3[3];
  pad = conv_transpose2d__pairs(call, "padding", 4, $T([0, 0, 0, 0]));
  strides = conv_transpose2d__pairs(call, "strides", 2, $T([1, 1]));
  dil = conv_transpose2d__pairs(call, "dilations", 2, $T([1, 1]));
  out_pad = conv_transpose2d__pairs(call, "outputPadding", 2, $T([0, 0]));
  groups = $M.get(call, "groups", 1);
  if ($truthy($any((() => { const $r = [];
  for (const $t4 of $iter(strides)) { let s;
  s = $t4;
    $r.push($lt(s, 1));
  }
  return $r; })()))) {
    throw new $WebNNTypeError(`strides ${$str(strides)} must be at least 1.`);
  }
  if ($truthy($any((() => { const $r = [];
  for (const $t5 of $iter(dil)) { let d;
  d = $t5;
    $r.push($lt(d, 1));
  }
  return $r; })()))) {
    throw new $WebNNTypeError(`dilations ${$str(dil)} must be at least 1.`);
  }
  if ($lt(groups, 1)) {
    throw new $WebNNTypeError("groups must be at least 1.");
  }
  if (!$eq(c, fi)) {
    throw new $WebNNTypeError(`input channels ${$str(c)} must equal the filter's input channels ${$str(fi)}.`);
  }
  if (($getitem(call, "outputSizes") == null)) {
    for (const $t6 of $iter($range(2))) {
      i = $t6;
      if ($ge($getitem(out_pad, i), $getitem(strides, i))) {
        throw new $WebNNTypeError(`outputPadding ${$str(out_pad)} must be smaller than strides ${$str(strides)}.`);
      }
    }
  }
  if ($gt($mul(fo, groups), 2147483647)) {
    throw new $WebNNTypeError(`output channels ${$str(fo)} * groups ${$str(groups)} is not a valid dimension.`);
  }
  base = (() => { const $r = [];
  for (const $t7 of $iter($T([$T([h, $getitem(strides, 0), kh, $getitem(dil, 0), $getitem(pad, 0), $getitem(pad, 1)]), $T([w, $getitem(strides, 1), kw, $getitem(dil, 1), $getitem(pad, 2), $getitem(pad, 3)])]))) { let size, s, k, d, pb, pe;
  const $t8 = $unpack($t7, 6);
  size = $t8[0];
  s = $t8[1];
  k = $t8[2];
  d = $t8[3];
  pb = $t8[4];
  pe = $t8[5];
    $r.push($sub($sub($add($add($mul($sub(size, 1), s), $mul($sub(k, 1), d)), 1), pb), pe));
  }
  return $r; })();
  if (($getitem(call, "outputSizes") != null)) {
    sizes = conv_transpose2d__pairs(call, "outputSizes", 2, $T([]));
    for (const $t9 of $iter($range(2))) {
      i = $t9;
      if ($eq($getitem(sizes, i), 0)) {
        throw new $WebNNTypeError("outputSizes values must be greater than 0.");
      }
      if (!(($c0, $c1) => $le($c0, $c1) && $lt($c1, $add($getitem(base, i), $getitem(strides, i))))($getitem(base, i), $getitem(sizes, i))) {
        throw new $WebNNTypeError(`outputSizes ${$str(sizes)} must be within [${$str($getitem(base, i))}, ${$str($add($getitem(base, i), $getitem(strides, i)))}) along axis ${$str(i)}.`);
      }
    }
    out_pad = (() => { const $r = [];
  for (const $t10 of $iter($range(2))) { let i;
  i = $t10;
    $r.push($sub($getitem(sizes, i), $getitem(base, i)));
  }
  return $r; })();
  }
  out_hw = (() => { const $r = [];
  for (const $t11 of $iter($range(2))) { let i;
  i = $t11;
    $r.push($add($getitem(base, i), $getitem(out_pad, i)));
  }
  return $r; })();
  if ($truthy($any((() => { const $r = [];
  for (const $t12 of $iter(out_hw)) { let o;
  o = $t12;
    $r.push($or($le(o, 0), () => $gt(o, 2147483647)));
  }
  return $r; })()))) {
    throw new $WebNNTypeError(`the output size ${$str(out_hw)} is not a valid dimension.`);
  }
  oc = $mul(fo, groups);
  bias = $getitem(call, "bias");
  if (((bias != null) && !$truthy(($isstr(bias))) && !$eq($tuple(bias.shape), $T([oc])))) {
    throw new $WebNNTypeError(`bias shape ${$str($list(bias.shape))} must be [${$str(oc)}] (output channels).`);
  }
  return $dict([["layout", layout], ["flayout", flayout], ["n", n], ["c", c], ["h", h], ["w", w], ["kh", kh], ["kw", kw], ["oc", oc], ["groups", groups], ["pad", pad], ["strides", strides], ["dil", dil], ["out_pad", out_pad], ["out_hw", out_hw]]);
}

function quantization__check_params(x, scale, zp) {
  let full, i, d, s;
  if ($gt(scale.rank, x.rank)) {
    throw new $WebNNTypeError(`scale rank ${$str(scale.rank)} must not exceed the input rank ${$str(x.rank)}.`);
  }
  if (!$eq(zp.shape, scale.shape)) {
    throw new $WebNNTypeError(`zeroPoint shape ${$str($list(zp.shape))} must equal scale shape ${$str($list(scale.shape))}.`);
  }
  full = $add($mul($T([1]), $sub(x.rank, scale.rank)), $tuple(scale.shape));
  for (const $t1 of $iter($enumerate($zip(x.shape, full)))) {
    const $t2 = $unpack($t1, 2);
    i = $t2[0];
    const $t3 = $unpack($t2[1], 2);
    d = $t3[0];
    s = $t3[1];
    if ($truthy($mod(d, s))) {
      throw new $WebNNTypeError(`scale shape ${$str($list(scale.shape))} is not block-wise broadcastable to input shape ${$str($list(x.shape))} (dimension ${$str(i)}: ${$str(d)} is not a multiple of ${$str(s)}).`);
    }
  }
}

function movement__check_shape(shape, what = "output") {
  let d;
  for (const $t1 of $iter(shape)) {
    d = $t1;
    if (!(($c0, $c1) => $lt($c0, $c1) && $le($c1, 2147483647))(0, d)) {
      throw new $WebNNTypeError(`${$str(what)} shape ${$str($list(shape))} has an invalid dimension ${$str(d)}.`);
    }
  }
  if ($gt($prod(shape), 2147483647)) {
    throw new $WebNNTypeError(`${$str(what)} shape ${$str($list(shape))} has too many elements.`);
  }
  return $tuple((() => { const $r = [];
  for (const $t2 of $iter(shape)) { let d;
  d = $t2;
    $r.push($int(d));
  }
  return $r; })());
}

function gemm_output_shape(call, shape_a, shape_b) {
  let a, b;
  a = ($truthy($M.get(call, "aTranspose", false)) ? $tuple($reversed(shape_a)) : $tuple(shape_a));
  b = ($truthy($M.get(call, "bTranspose", false)) ? $tuple($reversed(shape_b)) : $tuple(shape_b));
  if (!$eq($getitem(a, 1), $getitem(b, 0))) {
    throw new $WebNNTypeError(`the shapes of a ${$str($list(a))} and b ${$str($list(b))} (after transposes) do not multiply.`);
  }
  return $T([$getitem(a, 0), $getitem(b, 1)]);
}

function rnn__seq_common(call, gates) {
  let x, steps, hidden, _, b, i, d;
  const $t1 = $unpack($T([$getitem(call, "input"), $getitem(call, "steps"), $getitem(call, "hiddenSize")]), 3);
  x = $t1[0];
  steps = $t1[1];
  hidden = $t1[2];
  rnn__check_hidden(hidden);
  if ($le(steps, 0)) {
    throw new $WebNNTypeError("steps must be greater than 0.");
  }
  if (!$eq($getitem(x.shape, 0), steps)) {
    throw new $WebNNTypeError(`steps ${$str(steps)} must equal the input's first dimension ${$str($getitem(x.shape, 0))}.`);
  }
  const $t2 = $unpack(x.shape, 3);
  _ = $t2[0];
  b = $t2[1];
  i = $t2[2];
  d = rnn__num_dirs(call);
  rnn__expect(call, "weight", $T([d, $mul(gates, hidden), i]));
  rnn__expect(call, "recurrentWeight", $T([d, $mul(gates, hidden), hidden]));
  rnn__expect(call, "bias", $T([d, $mul(gates, hidden)]));
  rnn__expect(call, "recurrentBias", $T([d, $mul(gates, hidden)]));
  rnn__expect(call, "initialHiddenState", $T([d, b, hidden]));
  return $T([x, steps, hidden, b, d]);
}

function rnn__acts(call, n, default_) {
  let a;
  a = $getitem(call, "activations");
  a = ((a == null) ? $list(default_) : $list(a));
  if (!$eq($len(a), n)) {
    throw new $WebNNTypeError(`activations must have ${$str(n)} values, got ${$str($len(a))}.`);
  }
  return a;
}

function rnn__check_hidden(hidden) {
  if ($le(hidden, 0)) {
    throw new $WebNNTypeError("hiddenSize must be greater than 0.");
  }
}

function rnn__expect(call, name, shape) {
  let d;
  d = $getitem(call, name);
  if (((d != null) && !$eq($tuple(d.shape), $tuple(shape)))) {
    throw new $WebNNTypeError(`${$str(name)} shape ${$str($list(d.shape))} must be ${$str($list(shape))}.`);
  }
}

function normalization__in_axes(layout) {
  return ($eq(layout, "nchw") ? $T([1, [2, 3]]) : $T([3, [1, 2]]));
}

function normalization__ln_axes(call, rank) {
  let axes;
  axes = $getitem(call, "axes");
  return ((axes == null) ? $list($range(1, rank)) : $list(axes));
}

function core_check_axes(axes, rank, what = "axes") {
  let seen, a;
  seen = $set();
  for (const $t1 of $iter(axes)) {
    a = $t1;
    core_check_axis(a, rank, what);
    if ($in(a, seen)) {
      throw new $WebNNTypeError(`${$str(what)} ${$str($list(axes))} contains duplicates.`);
    }
    $M.add(seen, a);
  }
  return $list(axes);
}

function reduction__axes(call, rank) {
  let axes;
  axes = $getitem(call, "axes");
  return ((axes == null) ? $list($range(rank)) : $list(axes));
}

function resample2d__plan(call, shape) {
  let axes, sizes, out, scales, new_shape, a, o;
  axes = $getitem(call, "axes");
  axes = ((axes == null) ? [2, 3] : $list(axes));
  if (!$eq($len(axes), 2)) {
    throw new $WebNNTypeError(`axes must have 2 values, got ${$str($len(axes))}.`);
  }
  core_check_axes(axes, $len(shape));
  sizes = $getitem(call, "sizes");
  if ((sizes != null)) {
    sizes = $list(sizes);
    if (!$eq($len(sizes), 2)) {
      throw new $WebNNTypeError(`sizes must have 2 values, got ${$str($len(sizes))}.`);
    }
    if ($truthy($any((() => { const $r = [];
  for (const $t1 of $iter(sizes)) { let s;
  s = $t1;
    $r.push($or($le(s, 0), () => $gt(s, 2147483647)));
  }
  return $r; })()))) {
      throw new $WebNNTypeError(`sizes ${$str(sizes)} must be valid dimensions.`);
    }
    out = sizes;
  } else {
    scales = (($getitem(call, "scales") == null) ? [$F(1.0), $F(1.0)] : (() => { const $r = [];
  for (const $t2 of $iter($getitem(call, "scales"))) { let s;
  s = $t2;
    $r.push($float(s));
  }
  return $r; })());
    if (!$eq($len(scales), 2)) {
      throw new $WebNNTypeError(`scales must have 2 values, got ${$str($len(scales))}.`);
    }
    if ($truthy($any((() => { const $r = [];
  for (const $t3 of $iter(scales)) { let s;
  s = $t3;
    $r.push($or(!$gt(s, 0), () => $isinf(s)));
  }
  return $r; })()))) {
      throw new $WebNNTypeError(`scales [${$str($M.join(", ", (() => { const $r = [];
  for (const $t4 of $iter(scales)) { let s;
  s = $t4;
    $r.push(`${$format(s, "g")}`);
  }
  return $r; })()))}] must be positive.`);
    }
    out = (() => { const $r = [];
  for (const $t5 of $iter($zip(axes, scales))) { let a, s;
  const $t6 = $unpack($t5, 2);
  a = $t6[0];
  s = $t6[1];
    $r.push($int(Math.floor($mul($getitem(shape, a), s))));
  }
  return $r; })();
    if ($truthy($any((() => { const $r = [];
  for (const $t7 of $iter(out)) { let o;
  o = $t7;
    $r.push($or($le(o, 0), () => $gt(o, 2147483647)));
  }
  return $r; })()))) {
      throw new $WebNNTypeError(`the scaled output sizes ${$str(out)} are not valid dimensions.`);
    }
  }
  new_shape = $list(shape);
  for (const $t8 of $iter($zip(axes, out))) {
    const $t9 = $unpack($t8, 2);
    a = $t9[0];
    o = $t9[1];
    $setitem(new_shape, a, o);
  }
  return $T([axes, out, new_shape]);
}

function movement__reverse_axes(call, rank) {
  let axes;
  axes = $getitem(call, "axes");
  return ((axes == null) ? $list($range(rank)) : $list(axes));
}

function movement__split_sizes(call, dim) {
  let splits, sizes, n;
  splits = $getitem(call, "splits");
  if ($truthy(($islist(splits) || $istuple(splits)))) {
    sizes = (() => { const $r = [];
  for (const $t1 of $iter(splits)) { let s;
  s = $t1;
    $r.push($int(s));
  }
  return $r; })();
    if (!$truthy(sizes)) {
      throw new $WebNNTypeError("splits must not be empty.");
    }
    if ($truthy($any((() => { const $r = [];
  for (const $t2 of $iter(sizes)) { let s;
  s = $t2;
    $r.push($eq(s, 0));
  }
  return $r; })()))) {
      throw new $WebNNTypeError("splits values must be greater than 0.");
    }
    if (!$eq($sum(sizes), dim)) {
      throw new $WebNNTypeError(`the sum of splits ${$str(sizes)} must equal the dimension ${$str(dim)} along axis.`);
    }
    return sizes;
  }
  n = $int(splits);
  if ($eq(n, 0)) {
    throw new $WebNNTypeError("splits must be greater than 0.");
  }
  if ($truthy($mod(dim, n))) {
    throw new $WebNNTypeError(`dimension ${$str(dim)} along axis is not divisible by splits=${$str(n)}.`);
  }
  return $mul([$floordiv(dim, n)], n);
}

function transpose_permutation(call, rank) {
  let perm;
  perm = $getitem(call, "permutation");
  if ((perm == null)) {
    return $list($reversed($range(rank)));
  }
  perm = (() => { const $r = [];
  for (const $t1 of $iter(perm)) { let p;
  p = $t1;
    $r.push($int(p));
  }
  return $r; })();
  if (!$eq($len(perm), rank)) {
    throw new $WebNNTypeError(`permutation ${$str(perm)} must have ${$str(rank)} items (the input rank).`);
  }
  if ($truthy($any((() => { const $r = [];
  for (const $t2 of $iter(perm)) { let p;
  p = $t2;
    $r.push(!(($c0, $c1) => $le($c0, $c1) && $lt($c1, rank))(0, p));
  }
  return $r; })()))) {
    throw new $WebNNTypeError(`permutation ${$str(perm)} has values outside [0, ${$str(rank)}).`);
  }
  if (!$eq($len($set(perm)), rank)) {
    throw new $WebNNTypeError(`permutation ${$str(perm)} contains duplicates.`);
  }
  return perm;
}

function calls__is_desc(v) {
  return ($isdesc(v));
}

function core_data_type(name) {
  if (!$in(name, K_173ca94225)) {
    throw new $WebNNTypeError(`Unknown data type '${$str(name)}'.`);
  }
  return $getitem(K_173ca94225, name);
}

function core_shape_text(shape, most = 10) {
  let shown;
  shown = $M.join(",", (() => { const $r = [];
  for (const $t1 of $iter($slice(shape, null, most, null))) { let d;
  d = $t1;
    $r.push($str(d));
  }
  return $r; })());
  return ($le($len(shape), most) ? `[${$str(shown)}]` : `[${$str(shown)},... (${$str($len(shape))} dimensions)]`);
}

function nn_split_input_shape(shape, layout) {
  let n, c, h, w;
  const $t1 = $unpack($getitem(K_1ee0ab029c, layout), 4);
  n = $t1[0];
  c = $t1[1];
  h = $t1[2];
  w = $t1[3];
  return $T([$getitem(shape, n), $getitem(shape, c), $getitem(shape, h), $getitem(shape, w)]);
}

function nn_option_list(value, default_, length, what, nonzero = false) {
  if ((value == null)) {
    return $list(default_);
  }
  value = (() => { const $r = [];
  for (const $t1 of $iter(value)) { let v;
  v = $t1;
    $r.push($int(v));
  }
  return $r; })();
  if (!$eq($len(value), length)) {
    throw new $WebNNTypeError(`${$str(what)} must have ${$str(length)} items, got ${$str($len(value))}.`);
  }
  if (($truthy(nonzero) && $truthy($any((() => { const $r = [];
  for (const $t2 of $iter(value)) { let v;
  v = $t2;
    $r.push($eq(v, 0));
  }
  return $r; })())))) {
    throw new $WebNNTypeError(`${$str(what)} must not contain 0, got ${$str(value)}.`);
  }
  return value;
}

function nn_conv_output_size(input_size, filter_size, begin, end, stride, dilation) {
  let effective, numerator;
  effective = $add($mul($sub(filter_size, 1), dilation), 1);
  numerator = $add($add($add($sub(input_size, effective), begin), end), stride);
  return $T([$floordiv(numerator, stride), $neg($floordiv($neg(numerator), stride))]);
}

function nn_check_output_sizes(height, width, what) {
  let name, v;
  for (const $t1 of $iter($T([$T(["height", height]), $T(["width", width])]))) {
    const $t2 = $unpack($t1, 2);
    name = $t2[0];
    v = $t2[1];
    if (!(($c0, $c1) => $lt($c0, $c1) && $le($c1, 2147483647))(0, v)) {
      throw new $WebNNTypeError(`${$str(what)}: the computed output ${$str(name)} ${$str(v)} is not a valid dimension.`);
    }
  }
}

function conv_transpose2d__pairs(call, name, n, default_) {
  let v;
  v = $getitem(call, name);
  v = ((v == null) ? $list(default_) : $list(v));
  if (!$eq($len(v), n)) {
    throw new $WebNNTypeError(`${$str(name)} must have ${$str(n)} values, got ${$str($len(v))}.`);
  }
  return v;
}

function rnn__num_dirs(call) {
  return ($eq($M.get(call, "direction", "forward"), "both") ? 2 : 1);
}

const RULES = {
  validate_call: calls_validate_call,
  labelled_message: calls_labelled_message,
  call_from: calls_call_from,
  check_new_operand: calls_check_new_operand,
  check_scalar_constant: calls_check_scalar_constant,
  check_input_name: calls_check_input_name,
  check_dispatch: calls_check_dispatch,
  check_operand: calls_OperandChecks_check_operand,
  check_byte_length: calls_OperandChecks__check_byte_length,
  opdef_validate: registry_OpDef_validate,
  ops: {
    "abs": $opdef("abs", LIMITS_abs, $T(["output"]), unary__infer),
    "add": $opdef("add", LIMITS_add, $T(["output"]), binary_infer),
    "argMax": $opdef("argMax", LIMITS_argMax, $T(["output"]), reduction__arg_infer),
    "argMin": $opdef("argMin", LIMITS_argMin, $T(["output"]), reduction__arg_infer),
    "averagePool2d": $opdef("averagePool2d", LIMITS_averagePool2d, $T(["output"]), pool2d_infer),
    "batchNormalization": $opdef("batchNormalization", LIMITS_batchNormalization, $T(["output"]), normalization__bn_infer),
    "cast": $opdef("cast", LIMITS_cast, $T(["output"]), cast_infer),
    "ceil": $opdef("ceil", LIMITS_ceil, $T(["output"]), unary__infer),
    "clamp": $opdef("clamp", LIMITS_clamp, $T(["output"]), clamp_infer),
    "concat": $opdef("concat", LIMITS_concat, $T(["output"]), concat_infer),
    "conv2d": $opdef("conv2d", LIMITS_conv2d, $T(["output"]), conv2d_infer),
    "convTranspose2d": $opdef("convTranspose2d", LIMITS_convTranspose2d, $T(["output"]), conv_transpose2d__infer),
    "cos": $opdef("cos", LIMITS_cos, $T(["output"]), unary__infer),
    "cumulativeSum": $opdef("cumulativeSum", LIMITS_cumulativeSum, $T(["output"]), reduction__cumsum_infer),
    "dequantizeLinear": $opdef("dequantizeLinear", LIMITS_dequantizeLinear, $T(["output"]), quantization__dq_infer),
    "div": $opdef("div", LIMITS_div, $T(["output"]), binary_infer),
    "elu": $opdef("elu", LIMITS_elu, $T(["output"]), activation__infer),
    "equal": $opdef("equal", LIMITS_equal, $T(["output"]), logical__infer_binary),
    "erf": $opdef("erf", LIMITS_erf, $T(["output"]), unary__infer),
    "exp": $opdef("exp", LIMITS_exp, $T(["output"]), unary__infer),
    "expand": $opdef("expand", LIMITS_expand, $T(["output"]), movement__expand_infer),
    "floor": $opdef("floor", LIMITS_floor, $T(["output"]), unary__infer),
    "gather": $opdef("gather", LIMITS_gather, $T(["output"]), movement__gather_infer),
    "gatherElements": $opdef("gatherElements", LIMITS_gatherElements, $T(["output"]), movement__gather_el_infer),
    "gatherND": $opdef("gatherND", LIMITS_gatherND, $T(["output"]), movement__gather_nd_infer),
    "gelu": $opdef("gelu", LIMITS_gelu, $T(["output"]), unary__infer),
    "gemm": $opdef("gemm", LIMITS_gemm, $T(["output"]), gemm_infer),
    "greater": $opdef("greater", LIMITS_greater, $T(["output"]), logical__infer_binary),
    "greaterOrEqual": $opdef("greaterOrEqual", LIMITS_greaterOrEqual, $T(["output"]), logical__infer_binary),
    "gru": $opdef("gru", LIMITS_gru, K_8633add586, rnn__gru_infer),
    "gruCell": $opdef("gruCell", LIMITS_gruCell, $T(["output"]), rnn__gru_cell_infer),
    "hardSigmoid": $opdef("hardSigmoid", LIMITS_hardSigmoid, $T(["output"]), activation__infer),
    "hardSwish": $opdef("hardSwish", LIMITS_hardSwish, $T(["output"]), unary__infer),
    "identity": $opdef("identity", LIMITS_identity, $T(["output"]), unary__infer),
    "instanceNormalization": $opdef("instanceNormalization", LIMITS_instanceNormalization, $T(["output"]), normalization__in_infer),
    "isInfinite": $opdef("isInfinite", LIMITS_isInfinite, $T(["output"]), logical__infer_unary),
    "isNaN": $opdef("isNaN", LIMITS_isNaN, $T(["output"]), logical__infer_unary),
    "l2Pool2d": $opdef("l2Pool2d", LIMITS_l2Pool2d, $T(["output"]), pool2d_infer),
    "layerNormalization": $opdef("layerNormalization", LIMITS_layerNormalization, $T(["output"]), normalization__ln_infer),
    "leakyRelu": $opdef("leakyRelu", LIMITS_leakyRelu, $T(["output"]), activation__infer),
    "lesser": $opdef("lesser", LIMITS_lesser, $T(["output"]), logical__infer_binary),
    "lesserOrEqual": $opdef("lesserOrEqual", LIMITS_lesserOrEqual, $T(["output"]), logical__infer_binary),
    "linear": $opdef("linear", LIMITS_linear, $T(["output"]), activation__infer),
    "log": $opdef("log", LIMITS_log, $T(["output"]), unary__infer),
    "logicalAnd": $opdef("logicalAnd", LIMITS_logicalAnd, $T(["output"]), logical__infer_binary),
    "logicalNot": $opdef("logicalNot", LIMITS_logicalNot, $T(["output"]), logical__infer_unary),
    "logicalOr": $opdef("logicalOr", LIMITS_logicalOr, $T(["output"]), logical__infer_binary),
    "logicalXor": $opdef("logicalXor", LIMITS_logicalXor, $T(["output"]), logical__infer_binary),
    "lstm": $opdef("lstm", LIMITS_lstm, K_498c568eab, rnn__lstm_infer),
    "lstmCell": $opdef("lstmCell", LIMITS_lstmCell, K_8633add586, rnn__lstm_cell_infer),
    "matmul": $opdef("matmul", LIMITS_matmul, $T(["output"]), matmul_infer),
    "max": $opdef("max", LIMITS_max, $T(["output"]), binary_infer),
    "maxPool2d": $opdef("maxPool2d", LIMITS_maxPool2d, $T(["output"]), pool2d_infer),
    "min": $opdef("min", LIMITS_min, $T(["output"]), binary_infer),
    "mul": $opdef("mul", LIMITS_mul, $T(["output"]), binary_infer),
    "neg": $opdef("neg", LIMITS_neg, $T(["output"]), unary__infer),
    "notEqual": $opdef("notEqual", LIMITS_notEqual, $T(["output"]), logical__infer_binary),
    "pad": $opdef("pad", LIMITS_pad, $T(["output"]), movement__pad_infer),
    "pow": $opdef("pow", LIMITS_pow, $T(["output"]), binary_infer),
    "prelu": $opdef("prelu", LIMITS_prelu, $T(["output"]), activation__prelu_infer),
    "quantizeLinear": $opdef("quantizeLinear", LIMITS_quantizeLinear, $T(["output"]), quantization__q_infer),
    "reciprocal": $opdef("reciprocal", LIMITS_reciprocal, $T(["output"]), unary__infer),
    "reduceL1": $opdef("reduceL1", LIMITS_reduceL1, $T(["output"]), reduction__reduce_infer),
    "reduceL2": $opdef("reduceL2", LIMITS_reduceL2, $T(["output"]), reduction__reduce_infer),
    "reduceLogSum": $opdef("reduceLogSum", LIMITS_reduceLogSum, $T(["output"]), reduction__reduce_infer),
    "reduceLogSumExp": $opdef("reduceLogSumExp", LIMITS_reduceLogSumExp, $T(["output"]), reduction__reduce_infer),
    "reduceMax": $opdef("reduceMax", LIMITS_reduceMax, $T(["output"]), reduction__reduce_infer),
    "reduceMean": $opdef("reduceMean", LIMITS_reduceMean, $T(["output"]), reduction__reduce_infer),
    "reduceMin": $opdef("reduceMin", LIMITS_reduceMin, $T(["output"]), reduction__reduce_infer),
    "reduceProduct": $opdef("reduceProduct", LIMITS_reduceProduct, $T(["output"]), reduction__reduce_infer),
    "reduceSum": $opdef("reduceSum", LIMITS_reduceSum, $T(["output"]), reduction__reduce_infer),
    "reduceSumSquare": $opdef("reduceSumSquare", LIMITS_reduceSumSquare, $T(["output"]), reduction__reduce_infer),
    "relu": $opdef("relu", LIMITS_relu, $T(["output"]), unary__infer),
    "resample2d": $opdef("resample2d", LIMITS_resample2d, $T(["output"]), resample2d__infer),
    "reshape": $opdef("reshape", LIMITS_reshape, $T(["output"]), reshape_infer),
    "reverse": $opdef("reverse", LIMITS_reverse, $T(["output"]), movement__reverse_infer),
    "roundEven": $opdef("roundEven", LIMITS_roundEven, $T(["output"]), unary__infer),
    "scatterElements": $opdef("scatterElements", LIMITS_scatterElements, $T(["output"]), movement__scatter_el_infer),
    "scatterND": $opdef("scatterND", LIMITS_scatterND, $T(["output"]), movement__scatter_nd_infer),
    "sigmoid": $opdef("sigmoid", LIMITS_sigmoid, $T(["output"]), unary__infer),
    "sign": $opdef("sign", LIMITS_sign, $T(["output"]), unary__infer),
    "sin": $opdef("sin", LIMITS_sin, $T(["output"]), unary__infer),
    "slice": $opdef("slice", LIMITS_slice, $T(["output"]), movement__slice_infer),
    "softmax": $opdef("softmax", LIMITS_softmax, $T(["output"]), softmax_infer),
    "softplus": $opdef("softplus", LIMITS_softplus, $T(["output"]), unary__infer),
    "softsign": $opdef("softsign", LIMITS_softsign, $T(["output"]), unary__infer),
    "split": $opdef("split", LIMITS_split, $T(["outputs"]), movement__split_infer),
    "sqrt": $opdef("sqrt", LIMITS_sqrt, $T(["output"]), unary__infer),
    "sub": $opdef("sub", LIMITS_sub, $T(["output"]), binary_infer),
    "tan": $opdef("tan", LIMITS_tan, $T(["output"]), unary__infer),
    "tanh": $opdef("tanh", LIMITS_tanh, $T(["output"]), unary__infer),
    "tile": $opdef("tile", LIMITS_tile, $T(["output"]), movement__tile_infer),
    "transpose": $opdef("transpose", LIMITS_transpose, $T(["output"]), transpose_infer),
    "triangular": $opdef("triangular", LIMITS_triangular, $T(["output"]), movement__tri_infer),
    "where": $opdef("where", LIMITS_where, $T(["output"]), logical__where_infer),
  },
};
