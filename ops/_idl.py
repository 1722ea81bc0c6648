# GENERATED FILE - DO NOT EDIT.
# Produced by `webnn-bridge codegen` (devtools/codegen/idl.py) from idl/{external.idl,webnn.idl,extensions.idl}.
# Regenerate with `webnn-bridge codegen`; CI runs `webnn-bridge codegen --check`.
"""The WebNN IDL model (see devtools/codegen/idl.py): enums, dictionaries, interfaces and overloads."""

# fmt: off
IDL = {
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
     "required": False,
     "default": False
    },
    {
     "name": "outputDataType",
     "type": {
      "t": "enum",
      "name": "MLOperandDataType"
     },
     "required": False,
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
     "required": False,
     "default": 1
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "epsilon",
     "type": {
      "t": "double"
     },
     "required": False,
     "default": 1e-05
    },
    {
     "name": "scale",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLBatchNormalizationSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "mean",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "scale",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "variance",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLBinarySupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "a",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "b",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": None
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
     "required": False,
     "default": None
    }
   ]
  },
  "MLConcatSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "inputs",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLContextLostInfo": {
   "inherits": None,
   "members": [
    {
     "name": "message",
     "type": {
      "t": "DOMString"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLContextOptions": {
   "inherits": None,
   "members": [
    {
     "name": "accelerated",
     "type": {
      "t": "boolean"
     },
     "required": False,
     "default": True
    },
    {
     "name": "computePolicy",
     "type": {
      "t": "enum",
      "name": "MLComputePolicy"
     },
     "required": False,
     "default": None
    },
    {
     "name": "deviceType",
     "type": {
      "t": "enum",
      "name": "MLDeviceType"
     },
     "required": False,
     "default": None
    },
    {
     "name": "powerPreference",
     "type": {
      "t": "enum",
      "name": "MLPowerPreference"
     },
     "required": False,
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
     "required": False,
     "default": None
    },
    {
     "name": "dilations",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "filterLayout",
     "type": {
      "t": "enum",
      "name": "MLConv2dFilterOperandLayout"
     },
     "required": False,
     "default": "oihw"
    },
    {
     "name": "groups",
     "type": {
      "t": "unsigned long"
     },
     "required": False,
     "default": 1
    },
    {
     "name": "inputLayout",
     "type": {
      "t": "enum",
      "name": "MLInputOperandLayout"
     },
     "required": False,
     "default": "nchw"
    },
    {
     "name": "padding",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "strides",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLConv2dSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "filter",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": None
    },
    {
     "name": "dilations",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "filterLayout",
     "type": {
      "t": "enum",
      "name": "MLConvTranspose2dFilterOperandLayout"
     },
     "required": False,
     "default": "iohw"
    },
    {
     "name": "groups",
     "type": {
      "t": "unsigned long"
     },
     "required": False,
     "default": 1
    },
    {
     "name": "inputLayout",
     "type": {
      "t": "enum",
      "name": "MLInputOperandLayout"
     },
     "required": False,
     "default": "nchw"
    },
    {
     "name": "outputPadding",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "outputSizes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "padding",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "strides",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": False
    },
    {
     "name": "reversed",
     "type": {
      "t": "boolean"
     },
     "required": False,
     "default": False
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
     "required": False,
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
     "required": False,
     "default": 0
    }
   ]
  },
  "MLGatherSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "indices",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": False
    },
    {
     "name": "alpha",
     "type": {
      "t": "double"
     },
     "required": False,
     "default": 1.0
    },
    {
     "name": "bTranspose",
     "type": {
      "t": "boolean"
     },
     "required": False,
     "default": False
    },
    {
     "name": "beta",
     "type": {
      "t": "double"
     },
     "required": False,
     "default": 1.0
    },
    {
     "name": "c",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLGemmSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "a",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "b",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "c",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": None
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLGruWeightLayout"
     },
     "required": False,
     "default": "zrn"
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "resetAfter",
     "type": {
      "t": "boolean"
     },
     "required": False,
     "default": True
    }
   ]
  },
  "MLGruCellSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "hiddenState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "recurrentWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "weight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": None
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "direction",
     "type": {
      "t": "enum",
      "name": "MLRecurrentNetworkDirection"
     },
     "required": False,
     "default": "forward"
    },
    {
     "name": "initialHiddenState",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLGruWeightLayout"
     },
     "required": False,
     "default": "zrn"
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "resetAfter",
     "type": {
      "t": "boolean"
     },
     "required": False,
     "default": True
    },
    {
     "name": "returnSequence",
     "type": {
      "t": "boolean"
     },
     "required": False,
     "default": False
    }
   ]
  },
  "MLGruSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "initialHiddenState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output0",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output1",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "recurrentWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "weight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": 0.2
    },
    {
     "name": "beta",
     "type": {
      "t": "double"
     },
     "required": False,
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
     "required": False,
     "default": None
    },
    {
     "name": "epsilon",
     "type": {
      "t": "double"
     },
     "required": False,
     "default": 1e-05
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLInputOperandLayout"
     },
     "required": False,
     "default": "nchw"
    },
    {
     "name": "scale",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
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
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "epsilon",
     "type": {
      "t": "double"
     },
     "required": False,
     "default": 1e-05
    },
    {
     "name": "scale",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
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
     "required": False,
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
     "required": False,
     "default": 1
    },
    {
     "name": "beta",
     "type": {
      "t": "double"
     },
     "required": False,
     "default": 0
    }
   ]
  },
  "MLLogicalNotSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "a",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": None
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLLstmWeightLayout"
     },
     "required": False,
     "default": "iofg"
    },
    {
     "name": "peepholeWeight",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLLstmCellSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "cellState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "hiddenState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output0",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output1",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "peepholeWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "recurrentWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "weight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": None
    },
    {
     "name": "bias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "direction",
     "type": {
      "t": "enum",
      "name": "MLRecurrentNetworkDirection"
     },
     "required": False,
     "default": "forward"
    },
    {
     "name": "initialCellState",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "initialHiddenState",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLLstmWeightLayout"
     },
     "required": False,
     "default": "iofg"
    },
    {
     "name": "peepholeWeight",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "iface",
      "name": "MLOperand"
     },
     "required": False,
     "default": None
    },
    {
     "name": "returnSequence",
     "type": {
      "t": "boolean"
     },
     "required": False,
     "default": False
    }
   ]
  },
  "MLLstmSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "initialCellState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "initialHiddenState",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output0",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output1",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output2",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "peepholeWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "recurrentBias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "recurrentWeight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "weight",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLNormalizationSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "bias",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "scale",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLOpSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "abs",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "add",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "argMax",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "argMin",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "averagePool2d",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "batchNormalization",
     "type": {
      "t": "dict",
      "name": "MLBatchNormalizationSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "cast",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "ceil",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "clamp",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "concat",
     "type": {
      "t": "dict",
      "name": "MLConcatSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "constant",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "conv2d",
     "type": {
      "t": "dict",
      "name": "MLConv2dSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "convTranspose2d",
     "type": {
      "t": "dict",
      "name": "MLConv2dSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "cos",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "cumulativeSum",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "dequantizeLinear",
     "type": {
      "t": "dict",
      "name": "MLQuantizeDequantizeLinearSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "div",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "elu",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "equal",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "erf",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "exp",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "expand",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "floor",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "gather",
     "type": {
      "t": "dict",
      "name": "MLGatherSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "gatherElements",
     "type": {
      "t": "dict",
      "name": "MLGatherSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "gatherND",
     "type": {
      "t": "dict",
      "name": "MLGatherSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "gelu",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "gemm",
     "type": {
      "t": "dict",
      "name": "MLGemmSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "greater",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "greaterOrEqual",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "gru",
     "type": {
      "t": "dict",
      "name": "MLGruSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "gruCell",
     "type": {
      "t": "dict",
      "name": "MLGruCellSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "hardSigmoid",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "hardSwish",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "identity",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "instanceNormalization",
     "type": {
      "t": "dict",
      "name": "MLNormalizationSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "isInfinite",
     "type": {
      "t": "dict",
      "name": "MLLogicalNotSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "isNaN",
     "type": {
      "t": "dict",
      "name": "MLLogicalNotSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "l2Pool2d",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "layerNormalization",
     "type": {
      "t": "dict",
      "name": "MLNormalizationSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "leakyRelu",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "lesser",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "lesserOrEqual",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "linear",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "log",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "logicalAnd",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "logicalNot",
     "type": {
      "t": "dict",
      "name": "MLLogicalNotSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "logicalOr",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "logicalXor",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "lstm",
     "type": {
      "t": "dict",
      "name": "MLLstmSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "lstmCell",
     "type": {
      "t": "dict",
      "name": "MLLstmCellSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "matmul",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "max",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "maxPool2d",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "maxTensorByteLength",
     "type": {
      "t": "unsigned long long"
     },
     "required": False,
     "default": None
    },
    {
     "name": "min",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "mul",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "neg",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "notEqual",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "pad",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "pow",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "preferredInputLayout",
     "type": {
      "t": "enum",
      "name": "MLInputOperandLayout"
     },
     "required": False,
     "default": None
    },
    {
     "name": "prelu",
     "type": {
      "t": "dict",
      "name": "MLPreluSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "quantizeLinear",
     "type": {
      "t": "dict",
      "name": "MLQuantizeDequantizeLinearSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reciprocal",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reduceL1",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reduceL2",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reduceLogSum",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reduceLogSumExp",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reduceMax",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reduceMean",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reduceMin",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reduceProduct",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reduceSum",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reduceSumSquare",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "relu",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "resample2d",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reshape",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "reverse",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "roundEven",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "scatterElements",
     "type": {
      "t": "dict",
      "name": "MLScatterSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "scatterND",
     "type": {
      "t": "dict",
      "name": "MLScatterSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "sigmoid",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "sign",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "sin",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "slice",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "softmax",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "softplus",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "softsign",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "split",
     "type": {
      "t": "dict",
      "name": "MLSplitSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "sqrt",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "sub",
     "type": {
      "t": "dict",
      "name": "MLBinarySupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "tan",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "tanh",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "tile",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "transpose",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "triangular",
     "type": {
      "t": "dict",
      "name": "MLSingleInputSupportLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "where",
     "type": {
      "t": "dict",
      "name": "MLWhereSupportLimits"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLOperandDescriptor": {
   "inherits": None,
   "members": [
    {
     "name": "dataType",
     "type": {
      "t": "enum",
      "name": "MLOperandDataType"
     },
     "required": True,
     "default": None
    },
    {
     "name": "shape",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": True,
     "default": None
    }
   ]
  },
  "MLOperatorOptions": {
   "inherits": None,
   "members": [
    {
     "name": "label",
     "type": {
      "t": "USVString"
     },
     "required": False,
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
     "required": False,
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
     "required": False,
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
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "layout",
     "type": {
      "t": "enum",
      "name": "MLInputOperandLayout"
     },
     "required": False,
     "default": "nchw"
    },
    {
     "name": "outputShapeRounding",
     "type": {
      "t": "enum",
      "name": "MLRoundingType"
     },
     "required": False,
     "default": "floor"
    },
    {
     "name": "outputSizes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "padding",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "roundingType",
     "type": {
      "t": "enum",
      "name": "MLRoundingType"
     },
     "required": False,
     "default": None
    },
    {
     "name": "strides",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "windowDimensions",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLPreluSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "slope",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLQuantizeDequantizeLinearSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "scale",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "zeroPoint",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLRankRange": {
   "inherits": None,
   "members": [
    {
     "name": "max",
     "type": {
      "t": "unsigned long"
     },
     "required": False,
     "default": None
    },
    {
     "name": "min",
     "type": {
      "t": "unsigned long"
     },
     "required": False,
     "default": None
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
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "keepDimensions",
     "type": {
      "t": "boolean"
     },
     "required": False,
     "default": False
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
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
    },
    {
     "name": "mode",
     "type": {
      "t": "enum",
      "name": "MLInterpolationMode"
     },
     "required": False,
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
     "required": False,
     "default": None
    },
    {
     "name": "sizes",
     "type": {
      "t": "sequence",
      "of": {
       "t": "unsigned long",
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
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
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": 0
    }
   ]
  },
  "MLScatterSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "indices",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "updates",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    }
   ]
  },
  "MLSingleInputSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
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
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": 0
    }
   ]
  },
  "MLSplitSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "input",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "outputs",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": False
    },
    {
     "name": "usage",
     "type": {
      "t": "unsigned long"
     },
     "required": False,
     "default": None
    },
    {
     "name": "writable",
     "type": {
      "t": "boolean"
     },
     "required": False,
     "default": False
    }
   ]
  },
  "MLTensorLimits": {
   "inherits": None,
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
     "required": False,
     "default": None
    },
    {
     "name": "rankRange",
     "type": {
      "t": "dict",
      "name": "MLRankRange"
     },
     "required": False,
     "default": None
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
       "enforceRange": True
      }
     },
     "required": False,
     "default": None
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
     "required": False,
     "default": 0
    },
    {
     "name": "upper",
     "type": {
      "t": "boolean"
     },
     "required": False,
     "default": True
    }
   ]
  },
  "MLWhereSupportLimits": {
   "inherits": None,
   "members": [
    {
     "name": "condition",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "falseValue",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "output",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    },
    {
     "name": "trueValue",
     "type": {
      "t": "dict",
      "name": "MLTensorLimits"
     },
     "required": False,
     "default": None
    }
   ]
  }
 },
 "interfaces": {
  "ML": {
   "constructor": None,
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
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
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
   "constructor": None,
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
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "inputData",
        "type": {
         "t": "buffer"
        },
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "outputData",
        "type": {
         "t": "buffer"
        },
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "inputData",
        "type": {
         "t": "buffer"
        },
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "device",
        "type": {
         "t": "iface",
         "name": "GPUDevice"
        },
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
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
     "readonly": True
    },
    "lost": {
     "type": {
      "t": "promise",
      "of": {
       "t": "dict",
       "name": "MLContextLostInfo"
      }
     },
     "readonly": True
    }
   }
  },
  "MLGraph": {
   "constructor": None,
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
     "readonly": True
    }
   }
  },
  "MLOperand": {
   "constructor": None,
   "operations": {},
   "attributes": {
    "dataType": {
     "type": {
      "t": "enum",
      "name": "MLOperandDataType"
     },
     "readonly": True
    },
    "shape": {
     "type": {
      "t": "frozen",
      "of": {
       "t": "unsigned long"
      }
     },
     "readonly": True
    }
   }
  },
  "MLTensor": {
   "constructor": None,
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
     "readonly": True
    },
    "shape": {
     "type": {
      "t": "frozen",
      "of": {
       "t": "unsigned long"
      }
     },
     "readonly": True
    },
    "readable": {
     "type": {
      "t": "boolean"
     },
     "readonly": True
    },
    "writable": {
     "type": {
      "t": "boolean"
     },
     "readonly": True
    },
    "constant": {
     "type": {
      "t": "boolean"
     },
     "readonly": True
    },
    "gpuDevice": {
     "type": {
      "t": "iface",
      "name": "GPUDevice",
      "nullable": True
     },
     "readonly": True
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
       "optional": False,
       "default": None,
       "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "descriptor",
        "type": {
         "t": "dict",
         "name": "MLOperandDescriptor"
        },
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "buffer",
        "type": {
         "t": "buffer"
        },
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "axis",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLArgMinMaxOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "axis",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLArgMinMaxOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "mean",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "variance",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLBatchNormalizationOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "dataType",
        "type": {
         "t": "enum",
         "name": "MLOperandDataType"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLClampOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "axis",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "filter",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLConv2dOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "filter",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLConvTranspose2dOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "axis",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLCumulativeSumOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "scale",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "zeroPoint",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "scale",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "zeroPoint",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLEluOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "newShape",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": True
         }
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "indices",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLGatherOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "indices",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLGatherOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "indices",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLGemmOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "weight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "recurrentWeight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "steps",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "hiddenSize",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLGruOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "weight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "recurrentWeight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "hiddenState",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "hiddenSize",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLGruCellOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLHardSigmoidOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLInstanceNormalizationOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLLayerNormalizationOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLLeakyReluOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLLinearOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "weight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "recurrentWeight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "steps",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "hiddenSize",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLLstmOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "weight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "recurrentWeight",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "hiddenState",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "cellState",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "hiddenSize",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLLstmCellOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "b",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "beginningPadding",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": True
         }
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "endingPadding",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": True
         }
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLPadOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLPool2dOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLPool2dOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLPool2dOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "slope",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReduceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLResample2dOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "newShape",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": True
         }
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLReverseOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "indices",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "updates",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLScatterOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "indices",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "updates",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "starts",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": True
         }
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "sizes",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long",
          "enforceRange": True
         }
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLSliceOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "axis",
        "type": {
         "t": "unsigned long"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "splits",
        "type": {
         "t": "union",
         "of": [
          {
           "t": "unsigned long",
           "enforceRange": True
          },
          {
           "t": "sequence",
           "of": {
            "t": "unsigned long",
            "enforceRange": True
           }
          }
         ]
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLSplitOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "repetitions",
        "type": {
         "t": "sequence",
         "of": {
          "t": "unsigned long"
         }
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLTransposeOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLTriangularOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "trueValue",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "falseValue",
        "type": {
         "t": "iface",
         "name": "MLOperand"
        },
        "optional": False,
        "default": None,
        "variadic": False
       },
       {
        "name": "options",
        "type": {
         "t": "dict",
         "name": "MLOperatorOptions"
        },
        "optional": True,
        "default": {},
        "variadic": False
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
}
