// GENERATED FILE - DO NOT EDIT.
// Produced by `webnn-bridge codegen` (src/webnn_bridge/devtools/codegen/idl.py) from src/webnn_bridge/idl/{external.idl,webnn.idl,extensions.idl}.
// Regenerate with `webnn-bridge codegen`; CI runs `webnn-bridge codegen --check`.

// The IDL model (const IDL) used by the runtime's WebIDL binding layer is idl/model.json,
// which bridge/shim.py puts before this file when it assembles the served script.
// MLOperandDataType facts (element size, typed array), generated from ops/core.py.
const DATA_TYPES = {
 "float32": {
  "bits": 32,
  "array": "Float32Array"
 },
 "float16": {
  "bits": 16,
  "array": "Float16Array"
 },
 "int32": {
  "bits": 32,
  "array": "Int32Array"
 },
 "uint32": {
  "bits": 32,
  "array": "Uint32Array"
 },
 "int64": {
  "bits": 64,
  "array": "BigInt64Array"
 },
 "uint64": {
  "bits": 64,
  "array": "BigUint64Array"
 },
 "int8": {
  "bits": 8,
  "array": "Int8Array"
 },
 "uint8": {
  "bits": 8,
  "array": "Uint8Array"
 },
 "int4": {
  "bits": 4,
  "array": "Uint8Array"
 },
 "uint4": {
  "bits": 4,
  "array": "Uint8Array"
 }
};

// One class per interface; every member goes through the runtime binding layer ($b).
function defineInterfaces($b) {
  const classes = {};
  classes.ML = class ML {
    constructor() { $b.illegalConstructor('ML'); }
    createContext() { return $b.invoke(this, 'ML', 'createContext', arguments); }
  };
  classes.MLContext = class MLContext {
    constructor() { $b.illegalConstructor('MLContext'); }
    get accelerated() { return $b.getAttribute(this, 'MLContext', 'accelerated'); }
    get lost() { return $b.getAttribute(this, 'MLContext', 'lost'); }
    dispatch(graph, inputs, outputs) { return $b.invoke(this, 'MLContext', 'dispatch', arguments); }
    createTensor(descriptor) { return $b.invoke(this, 'MLContext', 'createTensor', arguments); }
    createConstantTensor(descriptor, inputData) { return $b.invoke(this, 'MLContext', 'createConstantTensor', arguments); }
    readTensor(tensor) { return $b.invoke(this, 'MLContext', 'readTensor', arguments); }
    writeTensor(tensor, inputData) { return $b.invoke(this, 'MLContext', 'writeTensor', arguments); }
    opSupportLimits() { return $b.invoke(this, 'MLContext', 'opSupportLimits', arguments); }
    destroy() { return $b.invoke(this, 'MLContext', 'destroy', arguments); }
    createExportableTensor(descriptor, device) { return $b.invoke(this, 'MLContext', 'createExportableTensor', arguments); }
    exportToGPU(tensor) { return $b.invoke(this, 'MLContext', 'exportToGPU', arguments); }
  };
  classes.MLGraph = class MLGraph {
    constructor() { $b.illegalConstructor('MLGraph'); }
    get devices() { return $b.getAttribute(this, 'MLGraph', 'devices'); }
    destroy() { return $b.invoke(this, 'MLGraph', 'destroy', arguments); }
  };
  classes.MLOperand = class MLOperand {
    constructor() { $b.illegalConstructor('MLOperand'); }
    get dataType() { return $b.getAttribute(this, 'MLOperand', 'dataType'); }
    get shape() { return $b.getAttribute(this, 'MLOperand', 'shape'); }
  };
  classes.MLTensor = class MLTensor {
    constructor() { $b.illegalConstructor('MLTensor'); }
    get dataType() { return $b.getAttribute(this, 'MLTensor', 'dataType'); }
    get shape() { return $b.getAttribute(this, 'MLTensor', 'shape'); }
    get readable() { return $b.getAttribute(this, 'MLTensor', 'readable'); }
    get writable() { return $b.getAttribute(this, 'MLTensor', 'writable'); }
    get constant() { return $b.getAttribute(this, 'MLTensor', 'constant'); }
    get gpuDevice() { return $b.getAttribute(this, 'MLTensor', 'gpuDevice'); }
    destroy() { return $b.invoke(this, 'MLTensor', 'destroy', arguments); }
  };
  classes.MLGraphBuilder = class MLGraphBuilder {
    constructor(context) { $b.construct(this, 'MLGraphBuilder', arguments, new.target); }
    input(name, descriptor) { return $b.invoke(this, 'MLGraphBuilder', 'input', arguments); }
    constant(tensor) { return $b.invoke(this, 'MLGraphBuilder', 'constant', arguments); }
    build(outputs) { return $b.invoke(this, 'MLGraphBuilder', 'build', arguments); }
    argMin(input, axis) { return $b.invoke(this, 'MLGraphBuilder', 'argMin', arguments); }
    argMax(input, axis) { return $b.invoke(this, 'MLGraphBuilder', 'argMax', arguments); }
    batchNormalization(input, mean, variance) { return $b.invoke(this, 'MLGraphBuilder', 'batchNormalization', arguments); }
    cast(input, dataType) { return $b.invoke(this, 'MLGraphBuilder', 'cast', arguments); }
    clamp(input) { return $b.invoke(this, 'MLGraphBuilder', 'clamp', arguments); }
    concat(inputs, axis) { return $b.invoke(this, 'MLGraphBuilder', 'concat', arguments); }
    conv2d(input, filter) { return $b.invoke(this, 'MLGraphBuilder', 'conv2d', arguments); }
    convTranspose2d(input, filter) { return $b.invoke(this, 'MLGraphBuilder', 'convTranspose2d', arguments); }
    cumulativeSum(input, axis) { return $b.invoke(this, 'MLGraphBuilder', 'cumulativeSum', arguments); }
    add(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'add', arguments); }
    sub(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'sub', arguments); }
    mul(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'mul', arguments); }
    div(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'div', arguments); }
    max(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'max', arguments); }
    min(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'min', arguments); }
    pow(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'pow', arguments); }
    equal(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'equal', arguments); }
    notEqual(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'notEqual', arguments); }
    greater(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'greater', arguments); }
    greaterOrEqual(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'greaterOrEqual', arguments); }
    lesser(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'lesser', arguments); }
    lesserOrEqual(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'lesserOrEqual', arguments); }
    logicalNot(a) { return $b.invoke(this, 'MLGraphBuilder', 'logicalNot', arguments); }
    logicalAnd(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'logicalAnd', arguments); }
    logicalOr(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'logicalOr', arguments); }
    logicalXor(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'logicalXor', arguments); }
    isNaN(a) { return $b.invoke(this, 'MLGraphBuilder', 'isNaN', arguments); }
    isInfinite(a) { return $b.invoke(this, 'MLGraphBuilder', 'isInfinite', arguments); }
    abs(input) { return $b.invoke(this, 'MLGraphBuilder', 'abs', arguments); }
    ceil(input) { return $b.invoke(this, 'MLGraphBuilder', 'ceil', arguments); }
    cos(input) { return $b.invoke(this, 'MLGraphBuilder', 'cos', arguments); }
    erf(input) { return $b.invoke(this, 'MLGraphBuilder', 'erf', arguments); }
    exp(input) { return $b.invoke(this, 'MLGraphBuilder', 'exp', arguments); }
    floor(input) { return $b.invoke(this, 'MLGraphBuilder', 'floor', arguments); }
    identity(input) { return $b.invoke(this, 'MLGraphBuilder', 'identity', arguments); }
    log(input) { return $b.invoke(this, 'MLGraphBuilder', 'log', arguments); }
    neg(input) { return $b.invoke(this, 'MLGraphBuilder', 'neg', arguments); }
    reciprocal(input) { return $b.invoke(this, 'MLGraphBuilder', 'reciprocal', arguments); }
    roundEven(input) { return $b.invoke(this, 'MLGraphBuilder', 'roundEven', arguments); }
    sin(input) { return $b.invoke(this, 'MLGraphBuilder', 'sin', arguments); }
    sign(input) { return $b.invoke(this, 'MLGraphBuilder', 'sign', arguments); }
    sqrt(input) { return $b.invoke(this, 'MLGraphBuilder', 'sqrt', arguments); }
    tan(input) { return $b.invoke(this, 'MLGraphBuilder', 'tan', arguments); }
    dequantizeLinear(input, scale, zeroPoint) { return $b.invoke(this, 'MLGraphBuilder', 'dequantizeLinear', arguments); }
    quantizeLinear(input, scale, zeroPoint) { return $b.invoke(this, 'MLGraphBuilder', 'quantizeLinear', arguments); }
    elu(input) { return $b.invoke(this, 'MLGraphBuilder', 'elu', arguments); }
    expand(input, newShape) { return $b.invoke(this, 'MLGraphBuilder', 'expand', arguments); }
    gather(input, indices) { return $b.invoke(this, 'MLGraphBuilder', 'gather', arguments); }
    gatherElements(input, indices) { return $b.invoke(this, 'MLGraphBuilder', 'gatherElements', arguments); }
    gatherND(input, indices) { return $b.invoke(this, 'MLGraphBuilder', 'gatherND', arguments); }
    gelu(input) { return $b.invoke(this, 'MLGraphBuilder', 'gelu', arguments); }
    gemm(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'gemm', arguments); }
    gru(input, weight, recurrentWeight, steps, hiddenSize) { return $b.invoke(this, 'MLGraphBuilder', 'gru', arguments); }
    gruCell(input, weight, recurrentWeight, hiddenState, hiddenSize) { return $b.invoke(this, 'MLGraphBuilder', 'gruCell', arguments); }
    hardSigmoid(input) { return $b.invoke(this, 'MLGraphBuilder', 'hardSigmoid', arguments); }
    hardSwish(input) { return $b.invoke(this, 'MLGraphBuilder', 'hardSwish', arguments); }
    instanceNormalization(input) { return $b.invoke(this, 'MLGraphBuilder', 'instanceNormalization', arguments); }
    layerNormalization(input) { return $b.invoke(this, 'MLGraphBuilder', 'layerNormalization', arguments); }
    leakyRelu(input) { return $b.invoke(this, 'MLGraphBuilder', 'leakyRelu', arguments); }
    linear(input) { return $b.invoke(this, 'MLGraphBuilder', 'linear', arguments); }
    lstm(input, weight, recurrentWeight, steps, hiddenSize) { return $b.invoke(this, 'MLGraphBuilder', 'lstm', arguments); }
    lstmCell(input, weight, recurrentWeight, hiddenState, cellState, hiddenSize) { return $b.invoke(this, 'MLGraphBuilder', 'lstmCell', arguments); }
    matmul(a, b) { return $b.invoke(this, 'MLGraphBuilder', 'matmul', arguments); }
    pad(input, beginningPadding, endingPadding) { return $b.invoke(this, 'MLGraphBuilder', 'pad', arguments); }
    averagePool2d(input) { return $b.invoke(this, 'MLGraphBuilder', 'averagePool2d', arguments); }
    l2Pool2d(input) { return $b.invoke(this, 'MLGraphBuilder', 'l2Pool2d', arguments); }
    maxPool2d(input) { return $b.invoke(this, 'MLGraphBuilder', 'maxPool2d', arguments); }
    prelu(input, slope) { return $b.invoke(this, 'MLGraphBuilder', 'prelu', arguments); }
    reduceL1(input) { return $b.invoke(this, 'MLGraphBuilder', 'reduceL1', arguments); }
    reduceL2(input) { return $b.invoke(this, 'MLGraphBuilder', 'reduceL2', arguments); }
    reduceLogSum(input) { return $b.invoke(this, 'MLGraphBuilder', 'reduceLogSum', arguments); }
    reduceLogSumExp(input) { return $b.invoke(this, 'MLGraphBuilder', 'reduceLogSumExp', arguments); }
    reduceMax(input) { return $b.invoke(this, 'MLGraphBuilder', 'reduceMax', arguments); }
    reduceMean(input) { return $b.invoke(this, 'MLGraphBuilder', 'reduceMean', arguments); }
    reduceMin(input) { return $b.invoke(this, 'MLGraphBuilder', 'reduceMin', arguments); }
    reduceProduct(input) { return $b.invoke(this, 'MLGraphBuilder', 'reduceProduct', arguments); }
    reduceSum(input) { return $b.invoke(this, 'MLGraphBuilder', 'reduceSum', arguments); }
    reduceSumSquare(input) { return $b.invoke(this, 'MLGraphBuilder', 'reduceSumSquare', arguments); }
    relu(input) { return $b.invoke(this, 'MLGraphBuilder', 'relu', arguments); }
    resample2d(input) { return $b.invoke(this, 'MLGraphBuilder', 'resample2d', arguments); }
    reshape(input, newShape) { return $b.invoke(this, 'MLGraphBuilder', 'reshape', arguments); }
    reverse(input) { return $b.invoke(this, 'MLGraphBuilder', 'reverse', arguments); }
    scatterElements(input, indices, updates) { return $b.invoke(this, 'MLGraphBuilder', 'scatterElements', arguments); }
    scatterND(input, indices, updates) { return $b.invoke(this, 'MLGraphBuilder', 'scatterND', arguments); }
    sigmoid(input) { return $b.invoke(this, 'MLGraphBuilder', 'sigmoid', arguments); }
    slice(input, starts, sizes) { return $b.invoke(this, 'MLGraphBuilder', 'slice', arguments); }
    softmax(input, axis) { return $b.invoke(this, 'MLGraphBuilder', 'softmax', arguments); }
    softplus(input) { return $b.invoke(this, 'MLGraphBuilder', 'softplus', arguments); }
    softsign(input) { return $b.invoke(this, 'MLGraphBuilder', 'softsign', arguments); }
    split(input, splits) { return $b.invoke(this, 'MLGraphBuilder', 'split', arguments); }
    tanh(input) { return $b.invoke(this, 'MLGraphBuilder', 'tanh', arguments); }
    tile(input, repetitions) { return $b.invoke(this, 'MLGraphBuilder', 'tile', arguments); }
    transpose(input) { return $b.invoke(this, 'MLGraphBuilder', 'transpose', arguments); }
    triangular(input) { return $b.invoke(this, 'MLGraphBuilder', 'triangular', arguments); }
    where(condition, trueValue, falseValue) { return $b.invoke(this, 'MLGraphBuilder', 'where', arguments); }
  };
  return classes;
}
