"""The op entry points of the aclnn face, one line per C function.

Generated from the op registry by ``python -m emulator.capi.generate``; do not edit (a test
fails when it is stale). The lines declare the names for a reader and a type checker; each
callable is built on its first read (``__getattr__``, emulator/aclnn/l2_face.py), which imports
that op's module only.
"""

from emulator.aclnn.l2_face import Phase1, Phase2, op_attribute

__getattr__ = op_attribute

aclnnAddGetWorkspaceSize: Phase1
aclnnAdd: Phase2
aclnnInplaceAddGetWorkspaceSize: Phase1
aclnnInplaceAdd: Phase2
aclnnAddsGetWorkspaceSize: Phase1
aclnnAdds: Phase2
aclnnInplaceAddsGetWorkspaceSize: Phase1
aclnnInplaceAdds: Phase2
aclnnSubGetWorkspaceSize: Phase1
aclnnSub: Phase2
aclnnInplaceSubGetWorkspaceSize: Phase1
aclnnInplaceSub: Phase2
aclnnSubsGetWorkspaceSize: Phase1
aclnnSubs: Phase2
aclnnInplaceSubsGetWorkspaceSize: Phase1
aclnnInplaceSubs: Phase2
aclnnMulGetWorkspaceSize: Phase1
aclnnMul: Phase2
aclnnInplaceMulGetWorkspaceSize: Phase1
aclnnInplaceMul: Phase2
aclnnMulsGetWorkspaceSize: Phase1
aclnnMuls: Phase2
aclnnInplaceMulsGetWorkspaceSize: Phase1
aclnnInplaceMuls: Phase2
aclnnDivGetWorkspaceSize: Phase1
aclnnDiv: Phase2
aclnnInplaceDivGetWorkspaceSize: Phase1
aclnnInplaceDiv: Phase2
aclnnDivsGetWorkspaceSize: Phase1
aclnnDivs: Phase2
aclnnInplaceDivsGetWorkspaceSize: Phase1
aclnnInplaceDivs: Phase2
aclnnCastGetWorkspaceSize: Phase1
aclnnCast: Phase2
aclnnEqTensorGetWorkspaceSize: Phase1
aclnnEqTensor: Phase2
aclnnInplaceEqTensorGetWorkspaceSize: Phase1
aclnnInplaceEqTensor: Phase2
aclnnGtTensorGetWorkspaceSize: Phase1
aclnnGtTensor: Phase2
aclnnInplaceGtTensorGetWorkspaceSize: Phase1
aclnnInplaceGtTensor: Phase2
aclnnGtScalarGetWorkspaceSize: Phase1
aclnnGtScalar: Phase2
aclnnInplaceGtScalarGetWorkspaceSize: Phase1
aclnnInplaceGtScalar: Phase2
aclnnAbsGetWorkspaceSize: Phase1
aclnnAbs: Phase2
aclnnNegGetWorkspaceSize: Phase1
aclnnNeg: Phase2
aclnnInplaceNegGetWorkspaceSize: Phase1
aclnnInplaceNeg: Phase2
aclnnExpGetWorkspaceSize: Phase1
aclnnExp: Phase2
aclnnInplaceExpGetWorkspaceSize: Phase1
aclnnInplaceExp: Phase2
aclnnLogGetWorkspaceSize: Phase1
aclnnLog: Phase2
aclnnInplaceLogGetWorkspaceSize: Phase1
aclnnInplaceLog: Phase2
aclnnSqrtGetWorkspaceSize: Phase1
aclnnSqrt: Phase2
aclnnInplaceSqrtGetWorkspaceSize: Phase1
aclnnInplaceSqrt: Phase2
aclnnRsqrtGetWorkspaceSize: Phase1
aclnnRsqrt: Phase2
aclnnInplaceRsqrtGetWorkspaceSize: Phase1
aclnnInplaceRsqrt: Phase2
aclnnReluGetWorkspaceSize: Phase1
aclnnRelu: Phase2
aclnnInplaceReluGetWorkspaceSize: Phase1
aclnnInplaceRelu: Phase2
aclnnSigmoidGetWorkspaceSize: Phase1
aclnnSigmoid: Phase2
aclnnInplaceSigmoidGetWorkspaceSize: Phase1
aclnnInplaceSigmoid: Phase2
aclnnGeluGetWorkspaceSize: Phase1
aclnnGelu: Phase2
aclnnSiluGetWorkspaceSize: Phase1
aclnnSilu: Phase2
aclnnTanhGetWorkspaceSize: Phase1
aclnnTanh: Phase2
aclnnInplaceTanhGetWorkspaceSize: Phase1
aclnnInplaceTanh: Phase2
aclnnReduceSumGetWorkspaceSize: Phase1
aclnnReduceSum: Phase2
aclnnMeanGetWorkspaceSize: Phase1
aclnnMean: Phase2
aclnnAmaxGetWorkspaceSize: Phase1
aclnnAmax: Phase2
aclnnSoftmaxGetWorkspaceSize: Phase1
aclnnSoftmax: Phase2
aclnnLayerNormGetWorkspaceSize: Phase1
aclnnLayerNorm: Phase2
aclnnLayerNormWithImplModeGetWorkspaceSize: Phase1
aclnnLayerNormWithImplMode: Phase2
aclnnRmsNormGetWorkspaceSize: Phase1
aclnnRmsNorm: Phase2
aclnnMmGetWorkspaceSize: Phase1
aclnnMm: Phase2
aclnnMatmulGetWorkspaceSize: Phase1
aclnnMatmul: Phase2
aclnnBatchMatMulGetWorkspaceSize: Phase1
aclnnBatchMatMul: Phase2
aclnnPermuteGetWorkspaceSize: Phase1
aclnnPermute: Phase2
aclnnInplaceCopyGetWorkspaceSize: Phase1
aclnnInplaceCopy: Phase2
aclnnInplaceFillScalarGetWorkspaceSize: Phase1
aclnnInplaceFillScalar: Phase2
aclnnInplaceZeroGetWorkspaceSize: Phase1
aclnnInplaceZero: Phase2
aclnnCatGetWorkspaceSize: Phase1
aclnnCat: Phase2
aclnnTriuGetWorkspaceSize: Phase1
aclnnTriu: Phase2
aclnnInplaceTriuGetWorkspaceSize: Phase1
aclnnInplaceTriu: Phase2
aclnnTrilGetWorkspaceSize: Phase1
aclnnTril: Phase2
aclnnInplaceTrilGetWorkspaceSize: Phase1
aclnnInplaceTril: Phase2
aclnnRollGetWorkspaceSize: Phase1
aclnnRoll: Phase2
aclnnRepeatGetWorkspaceSize: Phase1
aclnnRepeat: Phase2
aclnnGatherV2GetWorkspaceSize: Phase1
aclnnGatherV2: Phase2
aclnnIndexSelectGetWorkspaceSize: Phase1
aclnnIndexSelect: Phase2
aclnnSWhereGetWorkspaceSize: Phase1
aclnnSWhere: Phase2
aclnnStackGetWorkspaceSize: Phase1
aclnnStack: Phase2
aclnnSliceGetWorkspaceSize: Phase1
aclnnSlice: Phase2
aclnnNonzeroGetWorkspaceSize: Phase1
aclnnNonzero: Phase2
aclnnMaskedSelectGetWorkspaceSize: Phase1
aclnnMaskedSelect: Phase2
aclnnOneHotGetWorkspaceSize: Phase1
aclnnOneHot: Phase2
aclnnIndexFillTensorGetWorkspaceSize: Phase1
aclnnIndexFillTensor: Phase2
aclnnInplaceIndexFillTensorGetWorkspaceSize: Phase1
aclnnInplaceIndexFillTensor: Phase2
aclnnSearchSortedGetWorkspaceSize: Phase1
aclnnSearchSorted: Phase2
aclnnSearchSortedsGetWorkspaceSize: Phase1
aclnnSearchSorteds: Phase2
aclnnCummaxGetWorkspaceSize: Phase1
aclnnCummax: Phase2
aclnnAtanGetWorkspaceSize: Phase1
aclnnAtan: Phase2
aclnnInplaceAtanGetWorkspaceSize: Phase1
aclnnInplaceAtan: Phase2
aclnnCosGetWorkspaceSize: Phase1
aclnnCos: Phase2
aclnnInplaceCosGetWorkspaceSize: Phase1
aclnnInplaceCos: Phase2
aclnnSinGetWorkspaceSize: Phase1
aclnnSin: Phase2
aclnnInplaceSinGetWorkspaceSize: Phase1
aclnnInplaceSin: Phase2
aclnnFloorGetWorkspaceSize: Phase1
aclnnFloor: Phase2
aclnnInplaceFloorGetWorkspaceSize: Phase1
aclnnInplaceFloor: Phase2
aclnnReciprocalGetWorkspaceSize: Phase1
aclnnReciprocal: Phase2
aclnnInplaceReciprocalGetWorkspaceSize: Phase1
aclnnInplaceReciprocal: Phase2
aclnnSignGetWorkspaceSize: Phase1
aclnnSign: Phase2
aclnnPowTensorScalarGetWorkspaceSize: Phase1
aclnnPowTensorScalar: Phase2
aclnnInplacePowTensorScalarGetWorkspaceSize: Phase1
aclnnInplacePowTensorScalar: Phase2
aclnnPowScalarTensorGetWorkspaceSize: Phase1
aclnnPowScalarTensor: Phase2
aclnnPowTensorTensorGetWorkspaceSize: Phase1
aclnnPowTensorTensor: Phase2
aclnnInplacePowTensorTensorGetWorkspaceSize: Phase1
aclnnInplacePowTensorTensor: Phase2
aclnnLeakyReluGetWorkspaceSize: Phase1
aclnnLeakyRelu: Phase2
aclnnInplaceLeakyReluGetWorkspaceSize: Phase1
aclnnInplaceLeakyRelu: Phase2
aclnnEluGetWorkspaceSize: Phase1
aclnnElu: Phase2
aclnnInplaceEluGetWorkspaceSize: Phase1
aclnnInplaceElu: Phase2
aclnnHardswishGetWorkspaceSize: Phase1
aclnnHardswish: Phase2
aclnnInplaceHardswishGetWorkspaceSize: Phase1
aclnnInplaceHardswish: Phase2
aclnnHardsigmoidGetWorkspaceSize: Phase1
aclnnHardsigmoid: Phase2
aclnnInplaceHardsigmoidGetWorkspaceSize: Phase1
aclnnInplaceHardsigmoid: Phase2
aclnnSoftplusGetWorkspaceSize: Phase1
aclnnSoftplus: Phase2
aclnnGeluV2GetWorkspaceSize: Phase1
aclnnGeluV2: Phase2
aclnnThresholdGetWorkspaceSize: Phase1
aclnnThreshold: Phase2
aclnnInplaceThresholdGetWorkspaceSize: Phase1
aclnnInplaceThreshold: Phase2
aclnnGeTensorGetWorkspaceSize: Phase1
aclnnGeTensor: Phase2
aclnnInplaceGeTensorGetWorkspaceSize: Phase1
aclnnInplaceGeTensor: Phase2
aclnnLtTensorGetWorkspaceSize: Phase1
aclnnLtTensor: Phase2
aclnnInplaceLtTensorGetWorkspaceSize: Phase1
aclnnInplaceLtTensor: Phase2
aclnnLeTensorGetWorkspaceSize: Phase1
aclnnLeTensor: Phase2
aclnnInplaceLeTensorGetWorkspaceSize: Phase1
aclnnInplaceLeTensor: Phase2
aclnnNeTensorGetWorkspaceSize: Phase1
aclnnNeTensor: Phase2
aclnnInplaceNeTensorGetWorkspaceSize: Phase1
aclnnInplaceNeTensor: Phase2
aclnnMaximumGetWorkspaceSize: Phase1
aclnnMaximum: Phase2
aclnnMinimumGetWorkspaceSize: Phase1
aclnnMinimum: Phase2
aclnnLogicalAndGetWorkspaceSize: Phase1
aclnnLogicalAnd: Phase2
aclnnInplaceLogicalAndGetWorkspaceSize: Phase1
aclnnInplaceLogicalAnd: Phase2
aclnnLogicalOrGetWorkspaceSize: Phase1
aclnnLogicalOr: Phase2
aclnnInplaceLogicalOrGetWorkspaceSize: Phase1
aclnnInplaceLogicalOr: Phase2
aclnnLogicalNotGetWorkspaceSize: Phase1
aclnnLogicalNot: Phase2
aclnnInplaceLogicalNotGetWorkspaceSize: Phase1
aclnnInplaceLogicalNot: Phase2
aclnnBitwiseAndTensorGetWorkspaceSize: Phase1
aclnnBitwiseAndTensor: Phase2
aclnnInplaceBitwiseAndTensorGetWorkspaceSize: Phase1
aclnnInplaceBitwiseAndTensor: Phase2
aclnnBitwiseOrTensorGetWorkspaceSize: Phase1
aclnnBitwiseOrTensor: Phase2
aclnnInplaceBitwiseOrTensorGetWorkspaceSize: Phase1
aclnnInplaceBitwiseOrTensor: Phase2
aclnnBitwiseNotGetWorkspaceSize: Phase1
aclnnBitwiseNot: Phase2
aclnnClampGetWorkspaceSize: Phase1
aclnnClamp: Phase2
aclnnClampMinGetWorkspaceSize: Phase1
aclnnClampMin: Phase2
aclnnClampMaxGetWorkspaceSize: Phase1
aclnnClampMax: Phase2
aclnnInplaceClampMaxGetWorkspaceSize: Phase1
aclnnInplaceClampMax: Phase2
aclnnClampTensorGetWorkspaceSize: Phase1
aclnnClampTensor: Phase2
aclnnClampMinTensorGetWorkspaceSize: Phase1
aclnnClampMinTensor: Phase2
aclnnInplaceClampMinTensorGetWorkspaceSize: Phase1
aclnnInplaceClampMinTensor: Phase2
aclnnClampMaxTensorGetWorkspaceSize: Phase1
aclnnClampMaxTensor: Phase2
aclnnInplaceClampMaxTensorGetWorkspaceSize: Phase1
aclnnInplaceClampMaxTensor: Phase2
aclnnArangeGetWorkspaceSize: Phase1
aclnnArange: Phase2
aclnnLinspaceGetWorkspaceSize: Phase1
aclnnLinspace: Phase2
aclnnInplaceOneGetWorkspaceSize: Phase1
aclnnInplaceOne: Phase2
aclnnArgMaxGetWorkspaceSize: Phase1
aclnnArgMax: Phase2
aclnnCumsumGetWorkspaceSize: Phase1
aclnnCumsum: Phase2
aclnnCumsumV2GetWorkspaceSize: Phase1
aclnnCumsumV2: Phase2
aclnnSortGetWorkspaceSize: Phase1
aclnnSort: Phase2
aclnnArgsortGetWorkspaceSize: Phase1
aclnnArgsort: Phase2
aclnnTopkGetWorkspaceSize: Phase1
aclnnTopk: Phase2
aclnnNormGetWorkspaceSize: Phase1
aclnnNorm: Phase2
aclnnLogSoftmaxGetWorkspaceSize: Phase1
aclnnLogSoftmax: Phase2
aclnnAddRmsNormGetWorkspaceSize: Phase1
aclnnAddRmsNorm: Phase2
aclnnGroupNormGetWorkspaceSize: Phase1
aclnnGroupNorm: Phase2
aclnnBatchNormGetWorkspaceSize: Phase1
aclnnBatchNorm: Phase2
aclnnSwiGluGetWorkspaceSize: Phase1
aclnnSwiGlu: Phase2
aclnnGeGluGetWorkspaceSize: Phase1
aclnnGeGlu: Phase2
aclnnGeGluV3GetWorkspaceSize: Phase1
aclnnGeGluV3: Phase2
aclnnConstantPadNdGetWorkspaceSize: Phase1
aclnnConstantPadNd: Phase2
aclnnReflectionPad1dGetWorkspaceSize: Phase1
aclnnReflectionPad1d: Phase2
aclnnRepeatInterleaveIntGetWorkspaceSize: Phase1
aclnnRepeatInterleaveInt: Phase2
aclnnRepeatInterleaveIntWithDimGetWorkspaceSize: Phase1
aclnnRepeatInterleaveIntWithDim: Phase2
aclnnRepeatInterleaveGetWorkspaceSize: Phase1
aclnnRepeatInterleave: Phase2
aclnnRepeatInterleaveWithDimGetWorkspaceSize: Phase1
aclnnRepeatInterleaveWithDim: Phase2
aclnnIndexCopyGetWorkspaceSize: Phase1
aclnnIndexCopy: Phase2
aclnnInplaceIndexCopyGetWorkspaceSize: Phase1
aclnnInplaceIndexCopy: Phase2
aclnnIndexPutImplGetWorkspaceSize: Phase1
aclnnIndexPutImpl: Phase2
aclnnRotaryPositionEmbeddingGetWorkspaceSize: Phase1
aclnnRotaryPositionEmbedding: Phase2
aclnnFlashAttentionScoreGetWorkspaceSize: Phase1
aclnnFlashAttentionScore: Phase2
aclnnFlashAttentionScoreV2GetWorkspaceSize: Phase1
aclnnFlashAttentionScoreV2: Phase2
aclnnFusedInferAttentionScoreV2GetWorkspaceSize: Phase1
aclnnFusedInferAttentionScoreV2: Phase2
aclnnSigmoidBackwardGetWorkspaceSize: Phase1
aclnnSigmoidBackward: Phase2
aclnnSiluBackwardGetWorkspaceSize: Phase1
aclnnSiluBackward: Phase2
aclnnGeluBackwardGetWorkspaceSize: Phase1
aclnnGeluBackward: Phase2
aclnnHardswishBackwardGetWorkspaceSize: Phase1
aclnnHardswishBackward: Phase2
aclnnThresholdBackwardGetWorkspaceSize: Phase1
aclnnThresholdBackward: Phase2
aclnnSoftmaxBackwardGetWorkspaceSize: Phase1
aclnnSoftmaxBackward: Phase2
aclnnLogSoftmaxBackwardGetWorkspaceSize: Phase1
aclnnLogSoftmaxBackward: Phase2
aclnnRmsNormGradGetWorkspaceSize: Phase1
aclnnRmsNormGrad: Phase2
aclnnBatchNormBackwardGetWorkspaceSize: Phase1
aclnnBatchNormBackward: Phase2
aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize: Phase1
aclnnSoftmaxCrossEntropyWithLogits: Phase2
aclnnDropoutDoMaskGetWorkspaceSize: Phase1
aclnnDropoutDoMask: Phase2
aclnnUpsampleNearest2dGetWorkspaceSize: Phase1
aclnnUpsampleNearest2d: Phase2
aclnnUpsampleNearest2dBackwardGetWorkspaceSize: Phase1
aclnnUpsampleNearest2dBackward: Phase2
aclnnUpsampleBilinear2dGetWorkspaceSize: Phase1
aclnnUpsampleBilinear2d: Phase2
aclnnUpsampleBilinear2dBackwardGetWorkspaceSize: Phase1
aclnnUpsampleBilinear2dBackward: Phase2
aclnnMvGetWorkspaceSize: Phase1
aclnnMv: Phase2
aclnnTriangularSolveGetWorkspaceSize: Phase1
aclnnTriangularSolve: Phase2
aclnnWeightQuantBatchMatmulV2GetWorkspaceSize: Phase1
aclnnWeightQuantBatchMatmulV2: Phase2
aclnnTransMatmulWeightGetWorkspaceSize: Phase1
aclnnTransMatmulWeight: Phase2
aclnnConvolutionGetWorkspaceSize: Phase1
aclnnConvolution: Phase2
aclnnConvolutionBackwardGetWorkspaceSize: Phase1
aclnnConvolutionBackward: Phase2
aclnnIm2colGetWorkspaceSize: Phase1
aclnnIm2col: Phase2
aclnnMaxPoolGetWorkspaceSize: Phase1
aclnnMaxPool: Phase2
aclnnAvgPool2dGetWorkspaceSize: Phase1
aclnnAvgPool2d: Phase2

__all__ = [
    "aclnnAddGetWorkspaceSize",
    "aclnnAdd",
    "aclnnInplaceAddGetWorkspaceSize",
    "aclnnInplaceAdd",
    "aclnnAddsGetWorkspaceSize",
    "aclnnAdds",
    "aclnnInplaceAddsGetWorkspaceSize",
    "aclnnInplaceAdds",
    "aclnnSubGetWorkspaceSize",
    "aclnnSub",
    "aclnnInplaceSubGetWorkspaceSize",
    "aclnnInplaceSub",
    "aclnnSubsGetWorkspaceSize",
    "aclnnSubs",
    "aclnnInplaceSubsGetWorkspaceSize",
    "aclnnInplaceSubs",
    "aclnnMulGetWorkspaceSize",
    "aclnnMul",
    "aclnnInplaceMulGetWorkspaceSize",
    "aclnnInplaceMul",
    "aclnnMulsGetWorkspaceSize",
    "aclnnMuls",
    "aclnnInplaceMulsGetWorkspaceSize",
    "aclnnInplaceMuls",
    "aclnnDivGetWorkspaceSize",
    "aclnnDiv",
    "aclnnInplaceDivGetWorkspaceSize",
    "aclnnInplaceDiv",
    "aclnnDivsGetWorkspaceSize",
    "aclnnDivs",
    "aclnnInplaceDivsGetWorkspaceSize",
    "aclnnInplaceDivs",
    "aclnnCastGetWorkspaceSize",
    "aclnnCast",
    "aclnnEqTensorGetWorkspaceSize",
    "aclnnEqTensor",
    "aclnnInplaceEqTensorGetWorkspaceSize",
    "aclnnInplaceEqTensor",
    "aclnnGtTensorGetWorkspaceSize",
    "aclnnGtTensor",
    "aclnnInplaceGtTensorGetWorkspaceSize",
    "aclnnInplaceGtTensor",
    "aclnnGtScalarGetWorkspaceSize",
    "aclnnGtScalar",
    "aclnnInplaceGtScalarGetWorkspaceSize",
    "aclnnInplaceGtScalar",
    "aclnnAbsGetWorkspaceSize",
    "aclnnAbs",
    "aclnnNegGetWorkspaceSize",
    "aclnnNeg",
    "aclnnInplaceNegGetWorkspaceSize",
    "aclnnInplaceNeg",
    "aclnnExpGetWorkspaceSize",
    "aclnnExp",
    "aclnnInplaceExpGetWorkspaceSize",
    "aclnnInplaceExp",
    "aclnnLogGetWorkspaceSize",
    "aclnnLog",
    "aclnnInplaceLogGetWorkspaceSize",
    "aclnnInplaceLog",
    "aclnnSqrtGetWorkspaceSize",
    "aclnnSqrt",
    "aclnnInplaceSqrtGetWorkspaceSize",
    "aclnnInplaceSqrt",
    "aclnnRsqrtGetWorkspaceSize",
    "aclnnRsqrt",
    "aclnnInplaceRsqrtGetWorkspaceSize",
    "aclnnInplaceRsqrt",
    "aclnnReluGetWorkspaceSize",
    "aclnnRelu",
    "aclnnInplaceReluGetWorkspaceSize",
    "aclnnInplaceRelu",
    "aclnnSigmoidGetWorkspaceSize",
    "aclnnSigmoid",
    "aclnnInplaceSigmoidGetWorkspaceSize",
    "aclnnInplaceSigmoid",
    "aclnnGeluGetWorkspaceSize",
    "aclnnGelu",
    "aclnnSiluGetWorkspaceSize",
    "aclnnSilu",
    "aclnnTanhGetWorkspaceSize",
    "aclnnTanh",
    "aclnnInplaceTanhGetWorkspaceSize",
    "aclnnInplaceTanh",
    "aclnnReduceSumGetWorkspaceSize",
    "aclnnReduceSum",
    "aclnnMeanGetWorkspaceSize",
    "aclnnMean",
    "aclnnAmaxGetWorkspaceSize",
    "aclnnAmax",
    "aclnnSoftmaxGetWorkspaceSize",
    "aclnnSoftmax",
    "aclnnLayerNormGetWorkspaceSize",
    "aclnnLayerNorm",
    "aclnnLayerNormWithImplModeGetWorkspaceSize",
    "aclnnLayerNormWithImplMode",
    "aclnnRmsNormGetWorkspaceSize",
    "aclnnRmsNorm",
    "aclnnMmGetWorkspaceSize",
    "aclnnMm",
    "aclnnMatmulGetWorkspaceSize",
    "aclnnMatmul",
    "aclnnBatchMatMulGetWorkspaceSize",
    "aclnnBatchMatMul",
    "aclnnPermuteGetWorkspaceSize",
    "aclnnPermute",
    "aclnnInplaceCopyGetWorkspaceSize",
    "aclnnInplaceCopy",
    "aclnnInplaceFillScalarGetWorkspaceSize",
    "aclnnInplaceFillScalar",
    "aclnnInplaceZeroGetWorkspaceSize",
    "aclnnInplaceZero",
    "aclnnCatGetWorkspaceSize",
    "aclnnCat",
    "aclnnTriuGetWorkspaceSize",
    "aclnnTriu",
    "aclnnInplaceTriuGetWorkspaceSize",
    "aclnnInplaceTriu",
    "aclnnTrilGetWorkspaceSize",
    "aclnnTril",
    "aclnnInplaceTrilGetWorkspaceSize",
    "aclnnInplaceTril",
    "aclnnRollGetWorkspaceSize",
    "aclnnRoll",
    "aclnnRepeatGetWorkspaceSize",
    "aclnnRepeat",
    "aclnnGatherV2GetWorkspaceSize",
    "aclnnGatherV2",
    "aclnnIndexSelectGetWorkspaceSize",
    "aclnnIndexSelect",
    "aclnnSWhereGetWorkspaceSize",
    "aclnnSWhere",
    "aclnnStackGetWorkspaceSize",
    "aclnnStack",
    "aclnnSliceGetWorkspaceSize",
    "aclnnSlice",
    "aclnnNonzeroGetWorkspaceSize",
    "aclnnNonzero",
    "aclnnMaskedSelectGetWorkspaceSize",
    "aclnnMaskedSelect",
    "aclnnOneHotGetWorkspaceSize",
    "aclnnOneHot",
    "aclnnIndexFillTensorGetWorkspaceSize",
    "aclnnIndexFillTensor",
    "aclnnInplaceIndexFillTensorGetWorkspaceSize",
    "aclnnInplaceIndexFillTensor",
    "aclnnSearchSortedGetWorkspaceSize",
    "aclnnSearchSorted",
    "aclnnSearchSortedsGetWorkspaceSize",
    "aclnnSearchSorteds",
    "aclnnCummaxGetWorkspaceSize",
    "aclnnCummax",
    "aclnnAtanGetWorkspaceSize",
    "aclnnAtan",
    "aclnnInplaceAtanGetWorkspaceSize",
    "aclnnInplaceAtan",
    "aclnnCosGetWorkspaceSize",
    "aclnnCos",
    "aclnnInplaceCosGetWorkspaceSize",
    "aclnnInplaceCos",
    "aclnnSinGetWorkspaceSize",
    "aclnnSin",
    "aclnnInplaceSinGetWorkspaceSize",
    "aclnnInplaceSin",
    "aclnnFloorGetWorkspaceSize",
    "aclnnFloor",
    "aclnnInplaceFloorGetWorkspaceSize",
    "aclnnInplaceFloor",
    "aclnnReciprocalGetWorkspaceSize",
    "aclnnReciprocal",
    "aclnnInplaceReciprocalGetWorkspaceSize",
    "aclnnInplaceReciprocal",
    "aclnnSignGetWorkspaceSize",
    "aclnnSign",
    "aclnnPowTensorScalarGetWorkspaceSize",
    "aclnnPowTensorScalar",
    "aclnnInplacePowTensorScalarGetWorkspaceSize",
    "aclnnInplacePowTensorScalar",
    "aclnnPowScalarTensorGetWorkspaceSize",
    "aclnnPowScalarTensor",
    "aclnnPowTensorTensorGetWorkspaceSize",
    "aclnnPowTensorTensor",
    "aclnnInplacePowTensorTensorGetWorkspaceSize",
    "aclnnInplacePowTensorTensor",
    "aclnnLeakyReluGetWorkspaceSize",
    "aclnnLeakyRelu",
    "aclnnInplaceLeakyReluGetWorkspaceSize",
    "aclnnInplaceLeakyRelu",
    "aclnnEluGetWorkspaceSize",
    "aclnnElu",
    "aclnnInplaceEluGetWorkspaceSize",
    "aclnnInplaceElu",
    "aclnnHardswishGetWorkspaceSize",
    "aclnnHardswish",
    "aclnnInplaceHardswishGetWorkspaceSize",
    "aclnnInplaceHardswish",
    "aclnnHardsigmoidGetWorkspaceSize",
    "aclnnHardsigmoid",
    "aclnnInplaceHardsigmoidGetWorkspaceSize",
    "aclnnInplaceHardsigmoid",
    "aclnnSoftplusGetWorkspaceSize",
    "aclnnSoftplus",
    "aclnnGeluV2GetWorkspaceSize",
    "aclnnGeluV2",
    "aclnnThresholdGetWorkspaceSize",
    "aclnnThreshold",
    "aclnnInplaceThresholdGetWorkspaceSize",
    "aclnnInplaceThreshold",
    "aclnnGeTensorGetWorkspaceSize",
    "aclnnGeTensor",
    "aclnnInplaceGeTensorGetWorkspaceSize",
    "aclnnInplaceGeTensor",
    "aclnnLtTensorGetWorkspaceSize",
    "aclnnLtTensor",
    "aclnnInplaceLtTensorGetWorkspaceSize",
    "aclnnInplaceLtTensor",
    "aclnnLeTensorGetWorkspaceSize",
    "aclnnLeTensor",
    "aclnnInplaceLeTensorGetWorkspaceSize",
    "aclnnInplaceLeTensor",
    "aclnnNeTensorGetWorkspaceSize",
    "aclnnNeTensor",
    "aclnnInplaceNeTensorGetWorkspaceSize",
    "aclnnInplaceNeTensor",
    "aclnnMaximumGetWorkspaceSize",
    "aclnnMaximum",
    "aclnnMinimumGetWorkspaceSize",
    "aclnnMinimum",
    "aclnnLogicalAndGetWorkspaceSize",
    "aclnnLogicalAnd",
    "aclnnInplaceLogicalAndGetWorkspaceSize",
    "aclnnInplaceLogicalAnd",
    "aclnnLogicalOrGetWorkspaceSize",
    "aclnnLogicalOr",
    "aclnnInplaceLogicalOrGetWorkspaceSize",
    "aclnnInplaceLogicalOr",
    "aclnnLogicalNotGetWorkspaceSize",
    "aclnnLogicalNot",
    "aclnnInplaceLogicalNotGetWorkspaceSize",
    "aclnnInplaceLogicalNot",
    "aclnnBitwiseAndTensorGetWorkspaceSize",
    "aclnnBitwiseAndTensor",
    "aclnnInplaceBitwiseAndTensorGetWorkspaceSize",
    "aclnnInplaceBitwiseAndTensor",
    "aclnnBitwiseOrTensorGetWorkspaceSize",
    "aclnnBitwiseOrTensor",
    "aclnnInplaceBitwiseOrTensorGetWorkspaceSize",
    "aclnnInplaceBitwiseOrTensor",
    "aclnnBitwiseNotGetWorkspaceSize",
    "aclnnBitwiseNot",
    "aclnnClampGetWorkspaceSize",
    "aclnnClamp",
    "aclnnClampMinGetWorkspaceSize",
    "aclnnClampMin",
    "aclnnClampMaxGetWorkspaceSize",
    "aclnnClampMax",
    "aclnnInplaceClampMaxGetWorkspaceSize",
    "aclnnInplaceClampMax",
    "aclnnClampTensorGetWorkspaceSize",
    "aclnnClampTensor",
    "aclnnClampMinTensorGetWorkspaceSize",
    "aclnnClampMinTensor",
    "aclnnInplaceClampMinTensorGetWorkspaceSize",
    "aclnnInplaceClampMinTensor",
    "aclnnClampMaxTensorGetWorkspaceSize",
    "aclnnClampMaxTensor",
    "aclnnInplaceClampMaxTensorGetWorkspaceSize",
    "aclnnInplaceClampMaxTensor",
    "aclnnArangeGetWorkspaceSize",
    "aclnnArange",
    "aclnnLinspaceGetWorkspaceSize",
    "aclnnLinspace",
    "aclnnInplaceOneGetWorkspaceSize",
    "aclnnInplaceOne",
    "aclnnArgMaxGetWorkspaceSize",
    "aclnnArgMax",
    "aclnnCumsumGetWorkspaceSize",
    "aclnnCumsum",
    "aclnnCumsumV2GetWorkspaceSize",
    "aclnnCumsumV2",
    "aclnnSortGetWorkspaceSize",
    "aclnnSort",
    "aclnnArgsortGetWorkspaceSize",
    "aclnnArgsort",
    "aclnnTopkGetWorkspaceSize",
    "aclnnTopk",
    "aclnnNormGetWorkspaceSize",
    "aclnnNorm",
    "aclnnLogSoftmaxGetWorkspaceSize",
    "aclnnLogSoftmax",
    "aclnnAddRmsNormGetWorkspaceSize",
    "aclnnAddRmsNorm",
    "aclnnGroupNormGetWorkspaceSize",
    "aclnnGroupNorm",
    "aclnnBatchNormGetWorkspaceSize",
    "aclnnBatchNorm",
    "aclnnSwiGluGetWorkspaceSize",
    "aclnnSwiGlu",
    "aclnnGeGluGetWorkspaceSize",
    "aclnnGeGlu",
    "aclnnGeGluV3GetWorkspaceSize",
    "aclnnGeGluV3",
    "aclnnConstantPadNdGetWorkspaceSize",
    "aclnnConstantPadNd",
    "aclnnReflectionPad1dGetWorkspaceSize",
    "aclnnReflectionPad1d",
    "aclnnRepeatInterleaveIntGetWorkspaceSize",
    "aclnnRepeatInterleaveInt",
    "aclnnRepeatInterleaveIntWithDimGetWorkspaceSize",
    "aclnnRepeatInterleaveIntWithDim",
    "aclnnRepeatInterleaveGetWorkspaceSize",
    "aclnnRepeatInterleave",
    "aclnnRepeatInterleaveWithDimGetWorkspaceSize",
    "aclnnRepeatInterleaveWithDim",
    "aclnnIndexCopyGetWorkspaceSize",
    "aclnnIndexCopy",
    "aclnnInplaceIndexCopyGetWorkspaceSize",
    "aclnnInplaceIndexCopy",
    "aclnnIndexPutImplGetWorkspaceSize",
    "aclnnIndexPutImpl",
    "aclnnRotaryPositionEmbeddingGetWorkspaceSize",
    "aclnnRotaryPositionEmbedding",
    "aclnnFlashAttentionScoreGetWorkspaceSize",
    "aclnnFlashAttentionScore",
    "aclnnFlashAttentionScoreV2GetWorkspaceSize",
    "aclnnFlashAttentionScoreV2",
    "aclnnFusedInferAttentionScoreV2GetWorkspaceSize",
    "aclnnFusedInferAttentionScoreV2",
    "aclnnSigmoidBackwardGetWorkspaceSize",
    "aclnnSigmoidBackward",
    "aclnnSiluBackwardGetWorkspaceSize",
    "aclnnSiluBackward",
    "aclnnGeluBackwardGetWorkspaceSize",
    "aclnnGeluBackward",
    "aclnnHardswishBackwardGetWorkspaceSize",
    "aclnnHardswishBackward",
    "aclnnThresholdBackwardGetWorkspaceSize",
    "aclnnThresholdBackward",
    "aclnnSoftmaxBackwardGetWorkspaceSize",
    "aclnnSoftmaxBackward",
    "aclnnLogSoftmaxBackwardGetWorkspaceSize",
    "aclnnLogSoftmaxBackward",
    "aclnnRmsNormGradGetWorkspaceSize",
    "aclnnRmsNormGrad",
    "aclnnBatchNormBackwardGetWorkspaceSize",
    "aclnnBatchNormBackward",
    "aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize",
    "aclnnSoftmaxCrossEntropyWithLogits",
    "aclnnDropoutDoMaskGetWorkspaceSize",
    "aclnnDropoutDoMask",
    "aclnnUpsampleNearest2dGetWorkspaceSize",
    "aclnnUpsampleNearest2d",
    "aclnnUpsampleNearest2dBackwardGetWorkspaceSize",
    "aclnnUpsampleNearest2dBackward",
    "aclnnUpsampleBilinear2dGetWorkspaceSize",
    "aclnnUpsampleBilinear2d",
    "aclnnUpsampleBilinear2dBackwardGetWorkspaceSize",
    "aclnnUpsampleBilinear2dBackward",
    "aclnnMvGetWorkspaceSize",
    "aclnnMv",
    "aclnnTriangularSolveGetWorkspaceSize",
    "aclnnTriangularSolve",
    "aclnnWeightQuantBatchMatmulV2GetWorkspaceSize",
    "aclnnWeightQuantBatchMatmulV2",
    "aclnnTransMatmulWeightGetWorkspaceSize",
    "aclnnTransMatmulWeight",
    "aclnnConvolutionGetWorkspaceSize",
    "aclnnConvolution",
    "aclnnConvolutionBackwardGetWorkspaceSize",
    "aclnnConvolutionBackward",
    "aclnnIm2colGetWorkspaceSize",
    "aclnnIm2col",
    "aclnnMaxPoolGetWorkspaceSize",
    "aclnnMaxPool",
    "aclnnAvgPool2dGetWorkspaceSize",
    "aclnnAvgPool2d",
]
