// GENERATED FILE - DO NOT EDIT.
// Produced by `webnn-bridge codegen` (ops/jsgen.py) from the Python op rules (ops/defs/*, ops/registry.py,
// ops/core.py, ops/calls.py). Regenerate with `webnn-bridge codegen`; CI runs `webnn-bridge codegen --check`.
// The op rules (validation and shape inference), translated from Python; the prelude
// (js_shim/rules_prelude.js) gives Python's value semantics.

const K0 = $T(["float32", "float16", "int32", "int64", "int8"]);
const K1 = $T(["float32", "float16", "int32"]);
const K2 = Object.freeze({types: K0, ranks: $T([0, null]), same: null, same_rank: null, required_types: K1, required_ranks: $T([0, 5])});
const K3 = $T(["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8"]);
const K4 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K5 = $dict([["input", K2], ["output", K4]]);
const K6 = $T(["float32", "float16", "int32"]);
const K7 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K6, required_ranks: $T([0, 5])});
const K8 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K9 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K10 = $dict([["a", K7], ["b", K8], ["output", K9]]);
const K11 = $T(["float32", "float16", "int32"]);
const K12 = Object.freeze({types: K3, ranks: $T([1, null]), same: null, same_rank: null, required_types: K11, required_ranks: $T([1, 5])});
const K13 = Object.freeze({types: $T(["int32", "int64"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["int32"]), required_ranks: $T([0, 5])});
const K14 = $dict([["input", K12], ["output", K13]]);
const K15 = Object.freeze({types: K3, ranks: $T([1, null]), same: null, same_rank: null, required_types: K11, required_ranks: $T([1, 5])});
const K16 = Object.freeze({types: $T(["int32", "int64"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["int32"]), required_ranks: $T([0, 5])});
const K17 = $dict([["input", K15], ["output", K16]]);
const K18 = $T(["float32", "float16"]);
const K19 = Object.freeze({types: K18, ranks: $T([4, 4]), same: null, same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K20 = Object.freeze({types: K3, ranks: $T([4, 4]), same: "input", same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K21 = $dict([["input", K19], ["output", K20]]);
const K22 = Object.freeze({types: K18, ranks: $T([1, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([3, 5])});
const K23 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K24 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K25 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K26 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K27 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K28 = $dict([["input", K22], ["mean", K23], ["variance", K24], ["scale", K25], ["bias", K26], ["output", K27]]);
const K29 = $T(["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int4", "uint4"]);
const K30 = $T(["float32", "float16", "int32", "int8", "uint8"]);
const K31 = Object.freeze({types: K29, ranks: $T([0, null]), same: null, same_rank: null, required_types: K30, required_ranks: $T([0, 5])});
const K32 = Object.freeze({types: K29, ranks: $T([0, null]), same: null, same_rank: "input", required_types: K30, required_ranks: $T([0, 5])});
const K33 = $dict([["input", K31], ["output", K32]]);
const K34 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K35 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K36 = $dict([["input", K34], ["output", K35]]);
const K37 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K38 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K39 = $dict([["input", K37], ["output", K38]]);
const K40 = $T(["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int4", "uint4"]);
const K41 = $T(["float32", "float16", "int32"]);
const K42 = Object.freeze({types: K40, ranks: $T([1, null]), same: null, same_rank: null, required_types: K41, required_ranks: $T([1, 5])});
const K43 = Object.freeze({types: K3, ranks: $T([1, null]), same: "inputs", same_rank: null, required_types: K41, required_ranks: $T([1, 5])});
const K44 = $dict([["inputs", K42], ["output", K43]]);
const K45 = Object.freeze({types: K18, ranks: $T([4, 4]), same: null, same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K46 = Object.freeze({types: K3, ranks: $T([4, 4]), same: "input", same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K47 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: K18, required_ranks: $T([1, 1])});
const K48 = Object.freeze({types: K3, ranks: $T([4, 4]), same: "input", same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K49 = $dict([["input", K45], ["filter", K46], ["bias", K47], ["output", K48]]);
const K50 = Object.freeze({types: K18, ranks: $T([4, 4]), same: null, same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K51 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K52 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K53 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K54 = $dict([["input", K50], ["filter", K51], ["bias", K52], ["output", K53]]);
const K55 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K56 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K57 = $dict([["input", K55], ["output", K56]]);
const K58 = $T(["float32", "float16", "int32", "uint32", "int64", "uint64"]);
const K59 = Object.freeze({types: K58, ranks: $T([1, null]), same: null, same_rank: null, required_types: K11, required_ranks: $T([1, 5])});
const K60 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K61 = $dict([["input", K59], ["output", K60]]);
const K62 = $T(["uint8", "int8", "uint32", "int32", "int4", "uint4"]);
const K63 = Object.freeze({types: K62, ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8", "int8"]), required_ranks: $T([0, 5])});
const K64 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K65 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K66 = Object.freeze({types: K3, ranks: $T([0, null]), same: "scale", same_rank: null, required_types: $T([]), required_ranks: null});
const K67 = $dict([["input", K63], ["scale", K64], ["zeroPoint", K65], ["output", K66]]);
const K68 = $dict([["a", K7], ["b", K8], ["output", K9]]);
const K69 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K70 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K71 = $dict([["input", K69], ["output", K70]]);
const K72 = $T(["float32", "float16", "int32"]);
const K73 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K72, required_ranks: $T([0, 5])});
const K74 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K75 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K76 = $dict([["a", K73], ["b", K74], ["output", K75]]);
const K77 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K78 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K79 = $dict([["input", K77], ["output", K78]]);
const K80 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K81 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K82 = $dict([["input", K80], ["output", K81]]);
const K83 = $T(["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int4", "uint4"]);
const K84 = $T(["float32", "float16", "int32"]);
const K85 = Object.freeze({types: K83, ranks: $T([0, null]), same: null, same_rank: null, required_types: K84, required_ranks: $T([0, 5])});
const K86 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K87 = $dict([["input", K85], ["output", K86]]);
const K88 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K89 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K90 = $dict([["input", K88], ["output", K89]]);
const K91 = $T(["float32", "float16", "int32", "int8", "uint8"]);
const K92 = Object.freeze({types: K83, ranks: $T([1, null]), same: null, same_rank: null, required_types: K91, required_ranks: $T([1, 5])});
const K93 = $T(["int32", "uint32", "int64"]);
const K94 = Object.freeze({types: K93, ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["int32"]), required_ranks: $T([0, 5])});
const K95 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K96 = $dict([["input", K92], ["indices", K94], ["output", K95]]);
const K97 = Object.freeze({types: K3, ranks: $T([1, null]), same: null, same_rank: null, required_types: K84, required_ranks: $T([1, 5])});
const K98 = Object.freeze({types: K93, ranks: $T([0, null]), same: null, same_rank: "input", required_types: $T(["int32"]), required_ranks: $T([1, 5])});
const K99 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K100 = $dict([["input", K97], ["indices", K98], ["output", K99]]);
const K101 = Object.freeze({types: K3, ranks: $T([1, null]), same: null, same_rank: null, required_types: K91, required_ranks: $T([1, 5])});
const K102 = Object.freeze({types: K93, ranks: $T([1, null]), same: null, same_rank: null, required_types: $T(["int32"]), required_ranks: $T([1, 5])});
const K103 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K104 = $dict([["input", K101], ["indices", K102], ["output", K103]]);
const K105 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K106 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K107 = $dict([["input", K105], ["output", K106]]);
const K108 = Object.freeze({types: K18, ranks: $T([2, 2]), same: null, same_rank: null, required_types: K18, required_ranks: $T([2, 2])});
const K109 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "a", same_rank: null, required_types: K18, required_ranks: $T([2, 2])});
const K110 = Object.freeze({types: K3, ranks: $T([0, 2]), same: "a", same_rank: null, required_types: K18, required_ranks: $T([0, 2])});
const K111 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "a", same_rank: null, required_types: K18, required_ranks: $T([2, 2])});
const K112 = $dict([["a", K108], ["b", K109], ["c", K110], ["output", K111]]);
const K113 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K72, required_ranks: $T([0, 5])});
const K114 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K115 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K116 = $dict([["a", K113], ["b", K114], ["output", K115]]);
const K117 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K72, required_ranks: $T([0, 5])});
const K118 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K119 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K120 = $dict([["a", K117], ["b", K118], ["output", K119]]);
const K121 = Object.freeze({types: K18, ranks: $T([3, 3]), same: null, same_rank: null, required_types: K18, required_ranks: $T([3, 3])});
const K122 = Object.freeze({types: K3, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K123 = Object.freeze({types: K3, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K124 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K125 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K126 = Object.freeze({types: K3, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K127 = Object.freeze({types: K3, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K128 = Object.freeze({types: K3, ranks: $T([4, 4]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K129 = $dict([["input", K121], ["weight", K122], ["recurrentWeight", K123], ["bias", K124], ["recurrentBias", K125], ["initialHiddenState", K126], ["output0", K127], ["output1", K128]]);
const K130 = $T(["output0", "output1"]);
const K131 = Object.freeze({types: K18, ranks: $T([2, 2]), same: null, same_rank: null, required_types: K18, required_ranks: $T([2, 2])});
const K132 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K133 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K134 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K135 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K136 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K137 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K138 = $dict([["input", K131], ["weight", K132], ["recurrentWeight", K133], ["hiddenState", K134], ["bias", K135], ["recurrentBias", K136], ["output", K137]]);
const K139 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K140 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K141 = $dict([["input", K139], ["output", K140]]);
const K142 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K143 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K144 = $dict([["input", K142], ["output", K143]]);
const K145 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K1, required_ranks: $T([0, 5])});
const K146 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K147 = $dict([["input", K145], ["output", K146]]);
const K148 = Object.freeze({types: K18, ranks: $T([4, 4]), same: null, same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K149 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K150 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K151 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K152 = $dict([["input", K148], ["scale", K149], ["bias", K150], ["output", K151]]);
const K153 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K154 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K155 = $dict([["a", K153], ["output", K154]]);
const K156 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K157 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K158 = $dict([["a", K156], ["output", K157]]);
const K159 = Object.freeze({types: K18, ranks: $T([4, 4]), same: null, same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K160 = Object.freeze({types: K3, ranks: $T([4, 4]), same: "input", same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K161 = $dict([["input", K159], ["output", K160]]);
const K162 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K163 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K164 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K165 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K166 = $dict([["input", K162], ["scale", K163], ["bias", K164], ["output", K165]]);
const K167 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K168 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K169 = $dict([["input", K167], ["output", K168]]);
const K170 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K72, required_ranks: $T([0, 5])});
const K171 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K172 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K173 = $dict([["a", K170], ["b", K171], ["output", K172]]);
const K174 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K72, required_ranks: $T([0, 5])});
const K175 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K176 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K177 = $dict([["a", K174], ["b", K175], ["output", K176]]);
const K178 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K179 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K180 = $dict([["input", K178], ["output", K179]]);
const K181 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K182 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K183 = $dict([["input", K181], ["output", K182]]);
const K184 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K185 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K186 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K187 = $dict([["a", K184], ["b", K185], ["output", K186]]);
const K188 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K189 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K190 = $dict([["a", K188], ["output", K189]]);
const K191 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K192 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K193 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K194 = $dict([["a", K191], ["b", K192], ["output", K193]]);
const K195 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K196 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K197 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K198 = $dict([["a", K195], ["b", K196], ["output", K197]]);
const K199 = Object.freeze({types: K18, ranks: $T([3, 3]), same: null, same_rank: null, required_types: K18, required_ranks: $T([3, 3])});
const K200 = Object.freeze({types: K3, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K201 = Object.freeze({types: K3, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K202 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K203 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K204 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K205 = Object.freeze({types: K3, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K206 = Object.freeze({types: K3, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K207 = Object.freeze({types: K3, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K208 = Object.freeze({types: K3, ranks: $T([3, 3]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K209 = Object.freeze({types: K3, ranks: $T([4, 4]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K210 = $dict([["input", K199], ["weight", K200], ["recurrentWeight", K201], ["bias", K202], ["recurrentBias", K203], ["peepholeWeight", K204], ["initialHiddenState", K205], ["initialCellState", K206], ["output0", K207], ["output1", K208], ["output2", K209]]);
const K211 = $T(["output0", "output1", "output2"]);
const K212 = Object.freeze({types: K18, ranks: $T([2, 2]), same: null, same_rank: null, required_types: K18, required_ranks: $T([2, 2])});
const K213 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K214 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K215 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K216 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K217 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K218 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K219 = Object.freeze({types: K3, ranks: $T([1, 1]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K220 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K221 = Object.freeze({types: K3, ranks: $T([2, 2]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K222 = $dict([["input", K212], ["weight", K213], ["recurrentWeight", K214], ["hiddenState", K215], ["cellState", K216], ["bias", K217], ["recurrentBias", K218], ["peepholeWeight", K219], ["output0", K220], ["output1", K221]]);
const K223 = Object.freeze({types: K18, ranks: $T([2, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([2, 5])});
const K224 = Object.freeze({types: K3, ranks: $T([2, null]), same: "a", same_rank: null, required_types: K18, required_ranks: $T([2, 5])});
const K225 = Object.freeze({types: K3, ranks: $T([2, null]), same: "a", same_rank: null, required_types: K18, required_ranks: $T([2, 5])});
const K226 = $dict([["a", K223], ["b", K224], ["output", K225]]);
const K227 = $dict([["a", K7], ["b", K8], ["output", K9]]);
const K228 = Object.freeze({types: K3, ranks: $T([4, 4]), same: null, same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K229 = Object.freeze({types: K3, ranks: $T([4, 4]), same: "input", same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K230 = $dict([["input", K228], ["output", K229]]);
const K231 = $dict([["a", K7], ["b", K8], ["output", K9]]);
const K232 = $dict([["a", K7], ["b", K8], ["output", K9]]);
const K233 = Object.freeze({types: K0, ranks: $T([0, null]), same: null, same_rank: null, required_types: K1, required_ranks: $T([0, 5])});
const K234 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K235 = $dict([["input", K233], ["output", K234]]);
const K236 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K72, required_ranks: $T([0, 5])});
const K237 = Object.freeze({types: K3, ranks: $T([0, null]), same: "a", same_rank: null, required_types: $T([]), required_ranks: null});
const K238 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K239 = $dict([["a", K236], ["b", K237], ["output", K238]]);
const K240 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K241 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K242 = $dict([["input", K240], ["output", K241]]);
const K243 = $dict([["a", K7], ["b", K8], ["output", K9]]);
const K244 = $T(["float32", "float16", "int64", "int32", "int8"]);
const K245 = Object.freeze({types: K244, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K246 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K247 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K248 = $dict([["input", K245], ["slope", K246], ["output", K247]]);
const K249 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K250 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K251 = Object.freeze({types: K62, ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8", "int8"]), required_ranks: $T([0, 5])});
const K252 = Object.freeze({types: K3, ranks: $T([0, null]), same: "zeroPoint", same_rank: null, required_types: $T([]), required_ranks: null});
const K253 = $dict([["input", K249], ["scale", K250], ["zeroPoint", K251], ["output", K252]]);
const K254 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K255 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K256 = $dict([["input", K254], ["output", K255]]);
const K257 = Object.freeze({types: K58, ranks: $T([0, null]), same: null, same_rank: null, required_types: K11, required_ranks: $T([0, 5])});
const K258 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K259 = $dict([["input", K257], ["output", K258]]);
const K260 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K261 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K262 = $dict([["input", K260], ["output", K261]]);
const K263 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K264 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K265 = $dict([["input", K263], ["output", K264]]);
const K266 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K267 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K268 = $dict([["input", K266], ["output", K267]]);
const K269 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K11, required_ranks: $T([0, 5])});
const K270 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K271 = $dict([["input", K269], ["output", K270]]);
const K272 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K273 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K274 = $dict([["input", K272], ["output", K273]]);
const K275 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K11, required_ranks: $T([0, 5])});
const K276 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K277 = $dict([["input", K275], ["output", K276]]);
const K278 = Object.freeze({types: K58, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K279 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K280 = $dict([["input", K278], ["output", K279]]);
const K281 = Object.freeze({types: K58, ranks: $T([0, null]), same: null, same_rank: null, required_types: K11, required_ranks: $T([0, 5])});
const K282 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K283 = $dict([["input", K281], ["output", K282]]);
const K284 = Object.freeze({types: K58, ranks: $T([0, null]), same: null, same_rank: null, required_types: K11, required_ranks: $T([0, 5])});
const K285 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K286 = $dict([["input", K284], ["output", K285]]);
const K287 = Object.freeze({types: K0, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K288 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K289 = $dict([["input", K287], ["output", K288]]);
const K290 = $T(["float32", "float16", "int8", "uint8"]);
const K291 = Object.freeze({types: K290, ranks: $T([4, 4]), same: null, same_rank: null, required_types: K18, required_ranks: $T([4, 4])});
const K292 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K293 = $dict([["input", K291], ["output", K292]]);
const K294 = $T(["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int4", "uint4"]);
const K295 = $T(["float32", "float16", "int32", "int8", "uint8"]);
const K296 = Object.freeze({types: K294, ranks: $T([0, null]), same: null, same_rank: null, required_types: K295, required_ranks: $T([0, 5])});
const K297 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: K295, required_ranks: $T([0, 5])});
const K298 = $dict([["input", K296], ["output", K297]]);
const K299 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K84, required_ranks: $T([0, 5])});
const K300 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K301 = $dict([["input", K299], ["output", K300]]);
const K302 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K303 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K304 = $dict([["input", K302], ["output", K303]]);
const K305 = Object.freeze({types: K3, ranks: $T([1, null]), same: null, same_rank: null, required_types: K84, required_ranks: $T([1, 5])});
const K306 = Object.freeze({types: K93, ranks: $T([0, null]), same: null, same_rank: "input", required_types: $T(["int32"]), required_ranks: $T([1, 5])});
const K307 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K308 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K309 = $dict([["input", K305], ["indices", K306], ["updates", K307], ["output", K308]]);
const K310 = Object.freeze({types: K3, ranks: $T([1, null]), same: null, same_rank: null, required_types: K84, required_ranks: $T([1, 5])});
const K311 = Object.freeze({types: K93, ranks: $T([1, null]), same: null, same_rank: null, required_types: $T(["int32"]), required_ranks: $T([1, 5])});
const K312 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: null, required_types: $T([]), required_ranks: null});
const K313 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K314 = $dict([["input", K310], ["indices", K311], ["updates", K312], ["output", K313]]);
const K315 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K316 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K317 = $dict([["input", K315], ["output", K316]]);
const K318 = Object.freeze({types: K0, ranks: $T([0, null]), same: null, same_rank: null, required_types: K1, required_ranks: $T([0, 5])});
const K319 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K320 = $dict([["input", K318], ["output", K319]]);
const K321 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K322 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K323 = $dict([["input", K321], ["output", K322]]);
const K324 = Object.freeze({types: K83, ranks: $T([0, null]), same: null, same_rank: null, required_types: K91, required_ranks: $T([0, 5])});
const K325 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K326 = $dict([["input", K324], ["output", K325]]);
const K327 = Object.freeze({types: K18, ranks: $T([1, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([1, 5])});
const K328 = Object.freeze({types: K3, ranks: $T([1, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K329 = $dict([["input", K327], ["output", K328]]);
const K330 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K331 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K332 = $dict([["input", K330], ["output", K331]]);
const K333 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K334 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K335 = $dict([["input", K333], ["output", K334]]);
const K336 = Object.freeze({types: K3, ranks: $T([1, null]), same: null, same_rank: null, required_types: K84, required_ranks: $T([1, 5])});
const K337 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K338 = $dict([["input", K336], ["outputs", K337]]);
const K339 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K340 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K341 = $dict([["input", K339], ["output", K340]]);
const K342 = $dict([["a", K7], ["b", K8], ["output", K9]]);
const K343 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K344 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K345 = $dict([["input", K343], ["output", K344]]);
const K346 = Object.freeze({types: K18, ranks: $T([0, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([0, 5])});
const K347 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K348 = $dict([["input", K346], ["output", K347]]);
const K349 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K84, required_ranks: $T([0, 5])});
const K350 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K351 = $dict([["input", K349], ["output", K350]]);
const K352 = $T(["float32", "float16", "int32", "uint32", "int64", "uint64", "int8", "uint8", "int4", "uint4"]);
const K353 = $T(["float32", "float16", "int32"]);
const K354 = Object.freeze({types: K352, ranks: $T([0, null]), same: null, same_rank: null, required_types: K353, required_ranks: $T([0, 5])});
const K355 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K356 = $dict([["input", K354], ["output", K355]]);
const K357 = Object.freeze({types: K3, ranks: $T([2, null]), same: null, same_rank: null, required_types: K18, required_ranks: $T([2, 5])});
const K358 = Object.freeze({types: K3, ranks: $T([0, null]), same: "input", same_rank: "input", required_types: $T([]), required_ranks: null});
const K359 = $dict([["input", K357], ["output", K358]]);
const K360 = Object.freeze({types: $T(["uint8"]), ranks: $T([0, null]), same: null, same_rank: null, required_types: $T(["uint8"]), required_ranks: $T([0, 5])});
const K361 = Object.freeze({types: K3, ranks: $T([0, null]), same: null, same_rank: null, required_types: K72, required_ranks: $T([0, 5])});
const K362 = Object.freeze({types: K3, ranks: $T([0, null]), same: "trueValue", same_rank: null, required_types: $T([]), required_ranks: null});
const K363 = Object.freeze({types: K3, ranks: $T([0, null]), same: "trueValue", same_rank: null, required_types: $T([]), required_ranks: null});
const K364 = $dict([["condition", K360], ["trueValue", K361], ["falseValue", K362], ["output", K363]]);
const K365 = $dict([["oihw", $T([0, 1, 2, 3])], ["hwio", $T([3, 2, 0, 1])], ["ohwi", $T([0, 3, 1, 2])], ["ihwo", $T([3, 0, 1, 2])]]);
const K366 = $dict([["iohw", $T([0, 1, 2, 3])], ["hwoi", $T([3, 2, 0, 1])], ["ohwi", $T([3, 0, 1, 2])]]);
const K367 = Object.freeze({name: "float32", numpy: null, js_array: "Float32Array", onnx: 1, bits: 0});
const K368 = Object.freeze({name: "float16", numpy: null, js_array: "Float16Array", onnx: 10, bits: 0});
const K369 = Object.freeze({name: "int32", numpy: null, js_array: "Int32Array", onnx: 6, bits: 0});
const K370 = Object.freeze({name: "uint32", numpy: null, js_array: "Uint32Array", onnx: 12, bits: 0});
const K371 = Object.freeze({name: "int64", numpy: null, js_array: "BigInt64Array", onnx: 7, bits: 0});
const K372 = Object.freeze({name: "uint64", numpy: null, js_array: "BigUint64Array", onnx: 13, bits: 0});
const K373 = Object.freeze({name: "int8", numpy: null, js_array: "Int8Array", onnx: 3, bits: 0});
const K374 = Object.freeze({name: "uint8", numpy: null, js_array: "Uint8Array", onnx: 2, bits: 0});
const K375 = Object.freeze({name: "int4", numpy: "int4", js_array: "Uint8Array", onnx: 3, bits: 4});
const K376 = Object.freeze({name: "uint4", numpy: "uint4", js_array: "Uint8Array", onnx: 2, bits: 4});
const K377 = $dict([["float32", K367], ["float16", K368], ["int32", K369], ["uint32", K370], ["int64", K371], ["uint64", K372], ["int8", K373], ["uint8", K374], ["int4", K375], ["uint4", K376]]);
const K378 = $dict([["nchw", $T([0, 1, 2, 3])], ["nhwc", $T([0, 3, 1, 2])]]);

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
  const $t2 = $unpack($getitem(K365, filter_layout), 4);
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
  for (const $t2 of $iter($getitem(K366, flayout))) { let p;
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
  if (!$in(name, K377)) {
    throw new $WebNNTypeError(`Unknown data type '${$str(name)}'.`);
  }
  return $getitem(K377, name);
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
  const $t1 = $unpack($getitem(K378, layout), 4);
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
    "abs": $opdef("abs", K5, $T(["output"]), unary__infer),
    "add": $opdef("add", K10, $T(["output"]), binary_infer),
    "argMax": $opdef("argMax", K14, $T(["output"]), reduction__arg_infer),
    "argMin": $opdef("argMin", K17, $T(["output"]), reduction__arg_infer),
    "averagePool2d": $opdef("averagePool2d", K21, $T(["output"]), pool2d_infer),
    "batchNormalization": $opdef("batchNormalization", K28, $T(["output"]), normalization__bn_infer),
    "cast": $opdef("cast", K33, $T(["output"]), cast_infer),
    "ceil": $opdef("ceil", K36, $T(["output"]), unary__infer),
    "clamp": $opdef("clamp", K39, $T(["output"]), clamp_infer),
    "concat": $opdef("concat", K44, $T(["output"]), concat_infer),
    "conv2d": $opdef("conv2d", K49, $T(["output"]), conv2d_infer),
    "convTranspose2d": $opdef("convTranspose2d", K54, $T(["output"]), conv_transpose2d__infer),
    "cos": $opdef("cos", K57, $T(["output"]), unary__infer),
    "cumulativeSum": $opdef("cumulativeSum", K61, $T(["output"]), reduction__cumsum_infer),
    "dequantizeLinear": $opdef("dequantizeLinear", K67, $T(["output"]), quantization__dq_infer),
    "div": $opdef("div", K68, $T(["output"]), binary_infer),
    "elu": $opdef("elu", K71, $T(["output"]), activation__infer),
    "equal": $opdef("equal", K76, $T(["output"]), logical__infer_binary),
    "erf": $opdef("erf", K79, $T(["output"]), unary__infer),
    "exp": $opdef("exp", K82, $T(["output"]), unary__infer),
    "expand": $opdef("expand", K87, $T(["output"]), movement__expand_infer),
    "floor": $opdef("floor", K90, $T(["output"]), unary__infer),
    "gather": $opdef("gather", K96, $T(["output"]), movement__gather_infer),
    "gatherElements": $opdef("gatherElements", K100, $T(["output"]), movement__gather_el_infer),
    "gatherND": $opdef("gatherND", K104, $T(["output"]), movement__gather_nd_infer),
    "gelu": $opdef("gelu", K107, $T(["output"]), unary__infer),
    "gemm": $opdef("gemm", K112, $T(["output"]), gemm_infer),
    "greater": $opdef("greater", K116, $T(["output"]), logical__infer_binary),
    "greaterOrEqual": $opdef("greaterOrEqual", K120, $T(["output"]), logical__infer_binary),
    "gru": $opdef("gru", K129, K130, rnn__gru_infer),
    "gruCell": $opdef("gruCell", K138, $T(["output"]), rnn__gru_cell_infer),
    "hardSigmoid": $opdef("hardSigmoid", K141, $T(["output"]), activation__infer),
    "hardSwish": $opdef("hardSwish", K144, $T(["output"]), unary__infer),
    "identity": $opdef("identity", K147, $T(["output"]), unary__infer),
    "instanceNormalization": $opdef("instanceNormalization", K152, $T(["output"]), normalization__in_infer),
    "isInfinite": $opdef("isInfinite", K155, $T(["output"]), logical__infer_unary),
    "isNaN": $opdef("isNaN", K158, $T(["output"]), logical__infer_unary),
    "l2Pool2d": $opdef("l2Pool2d", K161, $T(["output"]), pool2d_infer),
    "layerNormalization": $opdef("layerNormalization", K166, $T(["output"]), normalization__ln_infer),
    "leakyRelu": $opdef("leakyRelu", K169, $T(["output"]), activation__infer),
    "lesser": $opdef("lesser", K173, $T(["output"]), logical__infer_binary),
    "lesserOrEqual": $opdef("lesserOrEqual", K177, $T(["output"]), logical__infer_binary),
    "linear": $opdef("linear", K180, $T(["output"]), activation__infer),
    "log": $opdef("log", K183, $T(["output"]), unary__infer),
    "logicalAnd": $opdef("logicalAnd", K187, $T(["output"]), logical__infer_binary),
    "logicalNot": $opdef("logicalNot", K190, $T(["output"]), logical__infer_unary),
    "logicalOr": $opdef("logicalOr", K194, $T(["output"]), logical__infer_binary),
    "logicalXor": $opdef("logicalXor", K198, $T(["output"]), logical__infer_binary),
    "lstm": $opdef("lstm", K210, K211, rnn__lstm_infer),
    "lstmCell": $opdef("lstmCell", K222, K130, rnn__lstm_cell_infer),
    "matmul": $opdef("matmul", K226, $T(["output"]), matmul_infer),
    "max": $opdef("max", K227, $T(["output"]), binary_infer),
    "maxPool2d": $opdef("maxPool2d", K230, $T(["output"]), pool2d_infer),
    "min": $opdef("min", K231, $T(["output"]), binary_infer),
    "mul": $opdef("mul", K232, $T(["output"]), binary_infer),
    "neg": $opdef("neg", K235, $T(["output"]), unary__infer),
    "notEqual": $opdef("notEqual", K239, $T(["output"]), logical__infer_binary),
    "pad": $opdef("pad", K242, $T(["output"]), movement__pad_infer),
    "pow": $opdef("pow", K243, $T(["output"]), binary_infer),
    "prelu": $opdef("prelu", K248, $T(["output"]), activation__prelu_infer),
    "quantizeLinear": $opdef("quantizeLinear", K253, $T(["output"]), quantization__q_infer),
    "reciprocal": $opdef("reciprocal", K256, $T(["output"]), unary__infer),
    "reduceL1": $opdef("reduceL1", K259, $T(["output"]), reduction__reduce_infer),
    "reduceL2": $opdef("reduceL2", K262, $T(["output"]), reduction__reduce_infer),
    "reduceLogSum": $opdef("reduceLogSum", K265, $T(["output"]), reduction__reduce_infer),
    "reduceLogSumExp": $opdef("reduceLogSumExp", K268, $T(["output"]), reduction__reduce_infer),
    "reduceMax": $opdef("reduceMax", K271, $T(["output"]), reduction__reduce_infer),
    "reduceMean": $opdef("reduceMean", K274, $T(["output"]), reduction__reduce_infer),
    "reduceMin": $opdef("reduceMin", K277, $T(["output"]), reduction__reduce_infer),
    "reduceProduct": $opdef("reduceProduct", K280, $T(["output"]), reduction__reduce_infer),
    "reduceSum": $opdef("reduceSum", K283, $T(["output"]), reduction__reduce_infer),
    "reduceSumSquare": $opdef("reduceSumSquare", K286, $T(["output"]), reduction__reduce_infer),
    "relu": $opdef("relu", K289, $T(["output"]), unary__infer),
    "resample2d": $opdef("resample2d", K293, $T(["output"]), resample2d__infer),
    "reshape": $opdef("reshape", K298, $T(["output"]), reshape_infer),
    "reverse": $opdef("reverse", K301, $T(["output"]), movement__reverse_infer),
    "roundEven": $opdef("roundEven", K304, $T(["output"]), unary__infer),
    "scatterElements": $opdef("scatterElements", K309, $T(["output"]), movement__scatter_el_infer),
    "scatterND": $opdef("scatterND", K314, $T(["output"]), movement__scatter_nd_infer),
    "sigmoid": $opdef("sigmoid", K317, $T(["output"]), unary__infer),
    "sign": $opdef("sign", K320, $T(["output"]), unary__infer),
    "sin": $opdef("sin", K323, $T(["output"]), unary__infer),
    "slice": $opdef("slice", K326, $T(["output"]), movement__slice_infer),
    "softmax": $opdef("softmax", K329, $T(["output"]), softmax_infer),
    "softplus": $opdef("softplus", K332, $T(["output"]), unary__infer),
    "softsign": $opdef("softsign", K335, $T(["output"]), unary__infer),
    "split": $opdef("split", K338, $T(["outputs"]), movement__split_infer),
    "sqrt": $opdef("sqrt", K341, $T(["output"]), unary__infer),
    "sub": $opdef("sub", K342, $T(["output"]), binary_infer),
    "tan": $opdef("tan", K345, $T(["output"]), unary__infer),
    "tanh": $opdef("tanh", K348, $T(["output"]), unary__infer),
    "tile": $opdef("tile", K351, $T(["output"]), movement__tile_infer),
    "transpose": $opdef("transpose", K356, $T(["output"]), transpose_infer),
    "triangular": $opdef("triangular", K359, $T(["output"]), movement__tri_infer),
    "where": $opdef("where", K364, $T(["output"]), logical__where_infer),
  },
};
