// GENERATED FILE - DO NOT EDIT.
// Produced by `webnn-bridge codegen` (devtools/codegen/idl.py) from idl/{external.idl,webnn.idl,extensions.idl}.
// Regenerate with `webnn-bridge codegen`; CI runs `webnn-bridge codegen --check`.

// The IDL model used by the runtime's WebIDL binding layer.
const IDL = {
 "enums": {
  "MLComputePolicy": [
   "default",
   "high-performance",
   "low-power",
   "fallback"
  ],
  "MLConv2dFilterOperandLayout": [
   "oihw",
   "hwio",
   "ohwi",
   "ihwo"
  ],
  "MLConvTranspose2dFilterOperandLayout": [
   "iohw",
   "hwoi",
   "ohwi"
  ],
  "MLDeviceType": [
   "cpu",
   "gpu",
   "npu"
  ],
  "MLGruWeightLayout": [
   "zrn",
   "rzn"
  ],
  "MLInputOperandLayout": [
   "nchw",
   "nhwc"
  ],
  "MLInterpolationMode": [
   "nearest-neighbor",
   "linear"
  ],
  "MLLstmWeightLayout": [
   "iofg",
   "ifgo"
  ],
  "MLOperandDataType": [
   "float32",
   "float16",
   "int32",
   "uint32",
   "int64",
   "uint64",
   "int8",
   "uint8",
   "int4",
   "uint4"
  ],
  "MLPaddingMode": [
   "constant",
   "edge",
   "reflection"
  ],
  "MLPowerPreference": [
   "default",
   "high-performance",
   "low-power"
  ],
  "MLRecurrentNetworkActivation": [
   "relu",
   "sigmoid",
   "tanh"
  ],
  "MLRecurrentNetworkDirection": [
   "forward",
   "backward",
   "both"
  ],
  "MLRoundingType": [
   "floor",
   "ceil"
  ]
 },
 "dictionaries": {
  "MLArgMinMaxOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "keepDimensions",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": false
    },
    {
     "name": "outputDataType",
     "type": {
      "t": "enum",
      "name": "MLOperandDataType"
     },
     "required": false,
     "default": "int32"
    }
   ]
  },
  "MLBatchNormalizationOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "axis",
     "type": {
      "t": "unsigned long"
     },
     "required": false,
     "default": 1
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "epsilon",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 1e-05
    },
    {
     "name": "scale",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLBatchNormalizationSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "mean",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "scale",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "variance",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLBinarySupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "a",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "b",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLClampOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "maxValue",
     "type": {
      "t": "union",
      "of": [
       {
        "t": "bigint"
       },
       {
        "t": "unrestricted double"
       }
      ]
     },
     "required": false,
     "default": null
    },
    {
     "name": "minValue",
     "type": {
      "t": "union",
      "of": [
       {
        "t": "bigint"
       },
       {
        "t": "unrestricted double"
       }
      ]
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLConcatSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "inputs",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLContextLostInfo": {
   "inherits": null,
   "members": [
    {
     "name": "message",
     "type": {
      "t": "DOMString"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLContextOptions": {
   "inherits": null,
   "members": [
    {
     "name": "accelerated",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": true
    },
    {
     "name": "computePolicy",
     "type": {
      "t": "enum",
      "name": "MLComputePolicy"
     },
     "required": false,
     "default": null
    },
    {
     "name": "deviceType",
     "type": {
      "t": "enum",
      "name": "MLDeviceType"
     },
     "required": false,
     "default": null
    },
    {
     "name": "powerPreference",
     "type": {
      "t": "enum",
      "name": "MLPowerPreference"
     },
     "required": false,
     "default": "default"
    }
   ]
  },
  "MLConv2dOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "dilations",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "filterLayout",
     "type": {
      "t": "enum",
      "name": "MLConv2dFilterOperandLayout"
     },
     "required": false,
     "default": "oihw"
    },
    {
     "name": "groups",
     "type": {
      "t": "unsigned long"
     },
     "required": false,
     "default": 1
    },
    {
     "name": "inputLayout",
     "type": {
      "t": "enum",
      "name": "MLInputOperandLayout"
     },
     "required": false,
     "default": "nchw"
    },
    {
     "name": "padding",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "strides",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLConv2dSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "filter",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLConvTranspose2dOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "dilations",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "filterLayout",
     "type": {
      "t": "enum",
      "name": "MLConvTranspose2dFilterOperandLayout"
     },
     "required": false,
     "default": "iohw"
    },
    {
     "name": "groups",
     "type": {
      "t": "unsigned long"
     },
     "required": false,
     "default": 1
    },
    {
     "name": "inputLayout",
     "type": {
      "t": "enum",
      "name": "MLInputOperandLayout"
     },
     "required": false,
     "default": "nchw"
    },
    {
     "name": "outputPadding",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "outputSizes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "padding",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "strides",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLCumulativeSumOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "exclusive",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": false
    },
    {
     "name": "reversed",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": false
    }
   ]
  },
  "MLEluOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "alpha",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 1
    }
   ]
  },
  "MLGatherOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "axis",
     "type": {
      "t": "unsigned long"
     },
     "required": false,
     "default": 0
    }
   ]
  },
  "MLGatherSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "indices",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLGemmOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "aTranspose",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": false
    },
    {
     "name": "alpha",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 1.0
    },
    {
     "name": "bTranspose",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": false
    },
    {
     "name": "beta",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 1.0
    },
    {
     "name": "c",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLGemmSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "a",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "b",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "c",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLGruCellOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "activations",
     "type": {
      "t": "sequence",
      "of": {
       "t": "enum",
       "name": "MLRecurrentNetworkActivation"
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLGruWeightLayout"
     },
     "required": false,
     "default": "zrn"
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "resetAfter",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": true
    }
   ]
  },
  "MLGruCellSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "hiddenState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "recurrentWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "weight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLGruOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "activations",
     "type": {
      "t": "sequence",
      "of": {
       "t": "enum",
       "name": "MLRecurrentNetworkActivation"
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "direction",
     "type": {
      "t": "enum",
      "name": "MLRecurrentNetworkDirection"
     },
     "required": false,
     "default": "forward"
    },
    {
     "name": "initialHiddenState",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLGruWeightLayout"
     },
     "required": false,
     "default": "zrn"
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "resetAfter",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": true
    },
    {
     "name": "returnSequence",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": false
    }
   ]
  },
  "MLGruSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "initialHiddenState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output0",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output1",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "recurrentWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "weight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLHardSigmoidOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "alpha",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 0.2
    },
    {
     "name": "beta",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 0.5
    }
   ]
  },
  "MLInstanceNormalizationOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "epsilon",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 1e-05
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLInputOperandLayout"
     },
     "required": false,
     "default": "nchw"
    },
    {
     "name": "scale",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLLayerNormalizationOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "axes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "epsilon",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 1e-05
    },
    {
     "name": "scale",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLLeakyReluOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "alpha",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 0.01
    }
   ]
  },
  "MLLinearOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "alpha",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 1
    },
    {
     "name": "beta",
     "type": {
      "t": "double"
     },
     "required": false,
     "default": 0
    }
   ]
  },
  "MLLogicalNotSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "a",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLLstmCellOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "activations",
     "type": {
      "t": "sequence",
      "of": {
       "t": "enum",
       "name": "MLRecurrentNetworkActivation"
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLLstmWeightLayout"
     },
     "required": false,
     "default": "iofg"
    },
    {
     "name": "peepholeWeight",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLLstmCellSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "cellState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "hiddenState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output0",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output1",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "peepholeWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "recurrentWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "weight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLLstmOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "activations",
     "type": {
      "t": "sequence",
      "of": {
       "t": "enum",
       "name": "MLRecurrentNetworkActivation"
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "direction",
     "type": {
      "t": "enum",
      "name": "MLRecurrentNetworkDirection"
     },
     "required": false,
     "default": "forward"
    },
    {
     "name": "initialCellState",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "initialHiddenState",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLLstmWeightLayout"
     },
     "required": false,
     "default": "iofg"
    },
    {
     "name": "peepholeWeight",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": false,
     "default": null
    },
    {
     "name": "returnSequence",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": false
    }
   ]
  },
  "MLLstmSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "initialCellState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "initialHiddenState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output0",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output1",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output2",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "peepholeWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "recurrentWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "weight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLNormalizationSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "scale",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLOpSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "abs",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "add",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "argMax",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "argMin",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "averagePool2d",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "batchNormalization",
     "type": {
      "t": "dict",
      "name": "MLBatchNormalizationSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "cast",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "ceil",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "clamp",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "concat",
     "type": {
      "t": "dict",
      "name": "MLConcatSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "constant",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "conv2d",
     "type": {
      "t": "dict",
      "name": "MLConv2dSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "convTranspose2d",
     "type": {
      "t": "dict",
      "name": "MLConv2dSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "cos",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "cumulativeSum",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "dequantizeLinear",
     "type": {
      "t": "dict",
      "name": "MLQuantizeDequantizeLinearSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "div",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "elu",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "equal",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "erf",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "exp",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "expand",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "floor",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "gather",
     "type": {
      "t": "dict",
      "name": "MLGatherSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "gatherElements",
     "type": {
      "t": "dict",
      "name": "MLGatherSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "gatherND",
     "type": {
      "t": "dict",
      "name": "MLGatherSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "gelu",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "gemm",
     "type": {
      "t": "dict",
      "name": "MLGemmSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "greater",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "greaterOrEqual",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "gru",
     "type": {
      "t": "dict",
      "name": "MLGruSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "gruCell",
     "type": {
      "t": "dict",
      "name": "MLGruCellSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "hardSigmoid",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "hardSwish",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "identity",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "instanceNormalization",
     "type": {
      "t": "dict",
      "name": "MLNormalizationSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "isInfinite",
     "type": {
      "t": "dict",
      "name": "MLLogicalNotSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "isNaN",
     "type": {
      "t": "dict",
      "name": "MLLogicalNotSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "l2Pool2d",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "layerNormalization",
     "type": {
      "t": "dict",
      "name": "MLNormalizationSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "leakyRelu",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "lesser",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "lesserOrEqual",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "linear",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "log",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "logicalAnd",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "logicalNot",
     "type": {
      "t": "dict",
      "name": "MLLogicalNotSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "logicalOr",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "logicalXor",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "lstm",
     "type": {
      "t": "dict",
      "name": "MLLstmSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "lstmCell",
     "type": {
      "t": "dict",
      "name": "MLLstmCellSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "matmul",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "max",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "maxPool2d",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "maxTensorByteLength",
     "type": {
      "t": "unsigned long long"
     },
     "required": false,
     "default": null
    },
    {
     "name": "min",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "mul",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "neg",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "notEqual",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "pad",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "pow",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "preferredInputLayout",
     "type": {
      "t": "enum",
      "name": "MLInputOperandLayout"
     },
     "required": false,
     "default": null
    },
    {
     "name": "prelu",
     "type": {
      "t": "dict",
      "name": "MLPreluSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "quantizeLinear",
     "type": {
      "t": "dict",
      "name": "MLQuantizeDequantizeLinearSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reciprocal",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reduceL1",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reduceL2",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reduceLogSum",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reduceLogSumExp",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reduceMax",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reduceMean",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reduceMin",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reduceProduct",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reduceSum",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reduceSumSquare",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "relu",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "resample2d",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reshape",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "reverse",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "roundEven",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "scatterElements",
     "type": {
      "t": "dict",
      "name": "MLScatterSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "scatterND",
     "type": {
      "t": "dict",
      "name": "MLScatterSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "sigmoid",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "sign",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "sin",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "slice",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "softmax",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "softplus",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "softsign",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "split",
     "type": {
      "t": "dict",
      "name": "MLSplitSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "sqrt",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "sub",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "tan",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "tanh",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "tile",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "transpose",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "triangular",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "where",
     "type": {
      "t": "dict",
      "name": "MLWhereSupportLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLOperandDescriptor": {
   "inherits": null,
   "members": [
    {
     "name": "dataType",
     "type": {
      "t": "enum",
      "name": "MLOperandDataType"
     },
     "required": true,
     "default": null
    },
    {
     "name": "shape",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": true,
     "default": null
    }
   ]
  },
  "MLOperatorOptions": {
   "inherits": null,
   "members": [
    {
     "name": "label",
     "type": {
      "t": "USVString"
     },
     "required": false,
     "default": ""
    }
   ]
  },
  "MLPadOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "mode",
     "type": {
      "t": "enum",
      "name": "MLPaddingMode"
     },
     "required": false,
     "default": "constant"
    },
    {
     "name": "value",
     "type": {
      "t": "union",
      "of": [
       {
        "t": "bigint"
       },
       {
        "t": "unrestricted double"
       }
      ]
     },
     "required": false,
     "default": 0
    }
   ]
  },
  "MLPool2dOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "dilations",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLInputOperandLayout"
     },
     "required": false,
     "default": "nchw"
    },
    {
     "name": "outputShapeRounding",
     "type": {
      "t": "enum",
      "name": "MLRoundingType"
     },
     "required": false,
     "default": "floor"
    },
    {
     "name": "outputSizes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "padding",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "roundingType",
     "type": {
      "t": "enum",
      "name": "MLRoundingType"
     },
     "required": false,
     "default": null
    },
    {
     "name": "strides",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "windowDimensions",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLPreluSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "slope",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLQuantizeDequantizeLinearSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "scale",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "zeroPoint",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLRankRange": {
   "inherits": null,
   "members": [
    {
     "name": "max",
     "type": {
      "t": "unsigned long"
     },
     "required": false,
     "default": null
    },
    {
     "name": "min",
     "type": {
      "t": "unsigned long"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLReduceOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "axes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "keepDimensions",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": false
    }
   ]
  },
  "MLResample2dOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "axes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "mode",
     "type": {
      "t": "enum",
      "name": "MLInterpolationMode"
     },
     "required": false,
     "default": "nearest-neighbor"
    },
    {
     "name": "scales",
     "type": {
      "t": "sequence",
      "of": {
       "t": "float"
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "sizes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLReverseOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "axes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLScatterOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "axis",
     "type": {
      "t": "unsigned long"
     },
     "required": false,
     "default": 0
    }
   ]
  },
  "MLScatterSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "indices",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "updates",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLSingleInputSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLSliceOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "strides",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLSplitOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "axis",
     "type": {
      "t": "unsigned long"
     },
     "required": false,
     "default": 0
    }
   ]
  },
  "MLSplitSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "outputs",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLTensorDescriptor": {
   "inherits": "MLOperandDescriptor",
   "members": [
    {
     "name": "readable",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": false
    },
    {
     "name": "usage",
     "type": {
      "t": "unsigned long"
     },
     "required": false,
     "default": null
    },
    {
     "name": "writable",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": false
    }
   ]
  },
  "MLTensorLimits": {
   "inherits": null,
   "members": [
    {
     "name": "dataTypes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "enum",
       "name": "MLOperandDataType"
      }
     },
     "required": false,
     "default": null
    },
    {
     "name": "rankRange",
     "type": {
      "t": "dict",
      "name": "MLRankRange"
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLTransposeOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "permutation",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": true
      }
     },
     "required": false,
     "default": null
    }
   ]
  },
  "MLTriangularOptions": {
   "inherits": "MLOperatorOptions",
   "members": [
    {
     "name": "diagonal",
     "type": {
      "t": "long"
     },
     "required": false,
     "default": 0
    },
    {
     "name": "upper",
     "type": {
      "t": "boolean"
     },
     "required": false,
     "default": true
    }
   ]
  },
  "MLWhereSupportLimits": {
   "inherits": null,
   "members": [
    {
     "name": "condition",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "falseValue",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    },
    {
     "name": "trueValue",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": false,
     "default": null
    }
   ]
  }
 },
 "interfaces": {
  "ML": {
   "constructor": null,
   "operations": {
    "createContext": [
     {
      "args": [
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLContextOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "promise",
       "of": {
        "t": "iface",
        "name": "MLContext"
       }
      }
     },
     {
      "args": [
       {
        "name": "gpuDevice",
        "type": {
         "t": "iface",
         "name": "GPUDevice"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "promise",
       "of": {
        "t": "iface",
        "name": "MLContext"
       }
      }
     }
    ]
   },
   "attributes": {}
  },
  "MLContext": {
   "constructor": null,
   "operations": {
    "dispatch": [
     {
      "args": [
       {
        "name": "graph",
        "type": {
         "t": "iface",
         "name": "MLGraph"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "inputs",
        "type": {
         "t": "record",
         "of": {
          "t": "iface",
          "name": "MLTensor"
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "outputs",
        "type": {
         "t": "record",
         "of": {
          "t": "iface",
          "name": "MLTensor"
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "undefined"
      }
     }
    ],
    "createTensor": [
     {
      "args": [
       {
        "name": "descriptor",
        "type": {
         "t": "dict",
         "name": "MLTensorDescriptor"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "promise",
       "of": {
        "t": "iface",
        "name": "MLTensor"
       }
      }
     }
    ],
    "createConstantTensor": [
     {
      "args": [
       {
        "name": "descriptor",
        "type": {
         "t": "dict",
         "name": "MLOperandDescriptor"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "inputData",
        "type": {
         "t": "buffer"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "promise",
       "of": {
        "t": "iface",
        "name": "MLTensor"
       }
      }
     }
    ],
    "readTensor": [
     {
      "args": [
       {
        "name": "tensor",
        "type": {
         "t": "iface",
         "name": "MLTensor"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "promise",
       "of": {
        "t": "ArrayBuffer"
       }
      }
     },
     {
      "args": [
       {
        "name": "tensor",
        "type": {
         "t": "iface",
         "name": "MLTensor"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "outputData",
        "type": {
         "t": "buffer"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "promise",
       "of": {
        "t": "undefined"
       }
      }
     }
    ],
    "writeTensor": [
     {
      "args": [
       {
        "name": "tensor",
        "type": {
         "t": "iface",
         "name": "MLTensor"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "inputData",
        "type": {
         "t": "buffer"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "undefined"
      }
     }
    ],
    "opSupportLimits": [
     {
      "args": [],
      "returns": {
       "t": "dict",
       "name": "MLOpSupportLimits"
      }
     }
    ],
    "destroy": [
     {
      "args": [],
      "returns": {
       "t": "undefined"
      }
     }
    ],
    "createExportableTensor": [
     {
      "args": [
       {
        "name": "descriptor",
        "type": {
         "t": "dict",
         "name": "MLTensorDescriptor"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "device",
        "type": {
         "t": "iface",
         "name": "GPUDevice"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "promise",
       "of": {
        "t": "iface",
        "name": "MLTensor"
       }
      }
     }
    ],
    "exportToGPU": [
     {
      "args": [
       {
        "name": "tensor",
        "type": {
         "t": "iface",
         "name": "MLTensor"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "promise",
       "of": {
        "t": "iface",
        "name": "GPUBuffer"
       }
      }
     }
    ]
   },
   "attributes": {
    "accelerated": {
     "type": {
      "t": "boolean"
     },
     "readonly": true
    },
    "lost": {
     "type": {
      "t": "promise",
      "of": {
       "t": "dict",
       "name": "MLContextLostInfo"
      }
     },
     "readonly": true
    }
   }
  },
  "MLGraph": {
   "constructor": null,
   "operations": {
    "destroy": [
     {
      "args": [],
      "returns": {
       "t": "undefined"
      }
     }
    ]
   },
   "attributes": {
    "devices": {
     "type": {
      "t": "frozen",
      "of": {
       "t": "enum",
       "name": "MLDeviceType"
      }
     },
     "readonly": true
    }
   }
  },
  "MLOperand": {
   "constructor": null,
   "operations": {},
   "attributes": {
    "dataType": {
     "type": {
      "t": "enum",
      "name": "MLOperandDataType"
     },
     "readonly": true
    },
    "shape": {
     "type": {
      "t": "frozen",
      "of": {
       "t": "unsigned long"
      }
     },
     "readonly": true
    }
   }
  },
  "MLTensor": {
   "constructor": null,
   "operations": {
    "destroy": [
     {
      "args": [],
      "returns": {
       "t": "undefined"
      }
     }
    ]
   },
   "attributes": {
    "dataType": {
     "type": {
      "t": "enum",
      "name": "MLOperandDataType"
     },
     "readonly": true
    },
    "shape": {
     "type": {
      "t": "frozen",
      "of": {
       "t": "unsigned long"
      }
     },
     "readonly": true
    },
    "readable": {
     "type": {
      "t": "boolean"
     },
     "readonly": true
    },
    "writable": {
     "type": {
      "t": "boolean"
     },
     "readonly": true
    },
    "constant": {
     "type": {
      "t": "boolean"
     },
     "readonly": true
    },
    "gpuDevice": {
     "type": {
      "t": "iface",
      "name": "GPUDevice",
      "nullable": true
     },
     "readonly": true
    }
   }
  },
  "MLGraphBuilder": {
   "constructor": [
    {
     "args": [
      {
       "name": "context",
       "type": {
        "t": "iface",
        "name": "MLContext"
       },
       "optional": false,
       "default": null,
       "variadic": false
      }
     ]
    }
   ],
   "operations": {
    "input": [
     {
      "args": [
       {
        "name": "name",
        "type": {
         "t": "USVString"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "descriptor",
        "type": {
         "t": "dict",
         "name": "MLOperandDescriptor"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "constant": [
     {
      "args": [
       {
        "name": "descriptor",
        "type": {
         "t": "dict",
         "name": "MLOperandDescriptor"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "buffer",
        "type": {
         "t": "buffer"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     },
     {
      "args": [
       {
        "name": "dataType",
        "type": {
         "t": "enum",
         "name": "MLOperandDataType"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "value",
        "type": {
         "t": "union",
         "of": [
          {
           "t": "bigint"
          },
          {
           "t": "unrestricted double"
          }
         ]
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     },
     {
      "args": [
       {
        "name": "tensor",
        "type": {
         "t": "iface",
         "name": "MLTensor"
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "build": [
     {
      "args": [
       {
        "name": "outputs",
        "type": {
         "t": "record",
         "of": {
          "t": "iface",
          "name": "MLOperand"
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       }
      ],
      "returns": {
       "t": "promise",
       "of": {
        "t": "iface",
        "name": "MLGraph"
       }
      }
     }
    ],
    "argMin": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "axis",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLArgMinMaxOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "argMax": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "axis",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLArgMinMaxOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "batchNormalization": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "mean",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "variance",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLBatchNormalizationOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "cast": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "dataType",
        "type": {
         "t": "enum",
         "name": "MLOperandDataType"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "clamp": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLClampOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "concat": [
     {
      "args": [
       {
        "name": "inputs",
        "type": {
         "t": "sequence",
         "of": {
          "t": "iface",
          "name": "MLOperand"
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "axis",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "conv2d": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "filter",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLConv2dOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "convTranspose2d": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "filter",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLConvTranspose2dOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "cumulativeSum": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "axis",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLCumulativeSumOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "add": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "sub": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "mul": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "div": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "max": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "min": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "pow": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "equal": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "notEqual": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "greater": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "greaterOrEqual": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "lesser": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "lesserOrEqual": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "logicalNot": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "logicalAnd": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "logicalOr": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "logicalXor": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "isNaN": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "isInfinite": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "abs": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "ceil": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "cos": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "erf": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "exp": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "floor": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "identity": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "log": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "neg": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reciprocal": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "roundEven": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "sin": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "sign": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "sqrt": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "tan": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "dequantizeLinear": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "scale",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "zeroPoint",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "quantizeLinear": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "scale",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "zeroPoint",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "elu": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLEluOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "expand": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "newShape",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": true
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "gather": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "indices",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLGatherOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "gatherElements": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "indices",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLGatherOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "gatherND": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "indices",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "gelu": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "gemm": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLGemmOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "gru": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "weight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "recurrentWeight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "steps",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "hiddenSize",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLGruOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "sequence",
       "of": {
        "t": "iface",
        "name": "MLOperand"
       }
      }
     }
    ],
    "gruCell": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "weight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "recurrentWeight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "hiddenState",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "hiddenSize",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLGruCellOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "hardSigmoid": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLHardSigmoidOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "hardSwish": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "instanceNormalization": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLInstanceNormalizationOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "layerNormalization": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLLayerNormalizationOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "leakyRelu": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLLeakyReluOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "linear": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLLinearOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "lstm": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "weight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "recurrentWeight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "steps",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "hiddenSize",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLLstmOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "sequence",
       "of": {
        "t": "iface",
        "name": "MLOperand"
       }
      }
     }
    ],
    "lstmCell": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "weight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "recurrentWeight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "hiddenState",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "cellState",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "hiddenSize",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLLstmCellOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "sequence",
       "of": {
        "t": "iface",
        "name": "MLOperand"
       }
      }
     }
    ],
    "matmul": [
     {
      "args": [
       {
        "name": "a",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "pad": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "beginningPadding",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": true
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "endingPadding",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": true
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLPadOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "averagePool2d": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLPool2dOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "l2Pool2d": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLPool2dOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "maxPool2d": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLPool2dOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "prelu": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "slope",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reduceL1": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reduceL2": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reduceLogSum": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reduceLogSumExp": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reduceMax": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reduceMean": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reduceMin": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reduceProduct": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reduceSum": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reduceSumSquare": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "relu": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "resample2d": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLResample2dOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reshape": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "newShape",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": true
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "reverse": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReverseOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "scatterElements": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "indices",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "updates",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLScatterOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "scatterND": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "indices",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "updates",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "sigmoid": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "slice": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "starts",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": true
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "sizes",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": true
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLSliceOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "softmax": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "axis",
        "type": {
         "t": "unsigned long"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "softplus": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "softsign": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "split": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "splits",
        "type": {
         "t": "union",
         "of": [
          {
           "t": "unsigned long",
           "enforceRange": true
          },
          {
           "t": "sequence",
           "of": {
            "t": "unsigned long",
            "enforceRange": true
           }
          }
         ]
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLSplitOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "sequence",
       "of": {
        "t": "iface",
        "name": "MLOperand"
       }
      }
     }
    ],
    "tanh": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "tile": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "repetitions",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long"
         }
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "transpose": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLTransposeOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "triangular": [
     {
      "args": [
       {
        "name": "input",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLTriangularOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ],
    "where": [
     {
      "args": [
       {
        "name": "condition",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "trueValue",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "falseValue",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": false,
        "default": null,
        "variadic": false
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": true,
        "default": {},
        "variadic": false
       }
      ],
      "returns": {
       "t": "iface",
       "name": "MLOperand"
      }
     }
    ]
   },
   "attributes": {}
  }
 }
};

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
