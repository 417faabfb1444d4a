"""The op entry points of the aclnn face, one line per C function.

Generated from the op registry by ``python -m emulator.capi.generate``; do not edit (a test
fails when it is stale). The callables are built in emulator/aclnn/l2_face.py.
"""

from emulator.aclnn.l2_face import Phase1, Phase2, phase1, phase2

aclnnAddGetWorkspaceSize: Phase1 = phase1("aclnnAdd")
aclnnAdd: Phase2 = phase2("aclnnAdd")
aclnnInplaceAddGetWorkspaceSize: Phase1 = phase1("aclnnInplaceAdd")
aclnnInplaceAdd: Phase2 = phase2("aclnnInplaceAdd")
aclnnAddsGetWorkspaceSize: Phase1 = phase1("aclnnAdds")
aclnnAdds: Phase2 = phase2("aclnnAdds")
aclnnInplaceAddsGetWorkspaceSize: Phase1 = phase1("aclnnInplaceAdds")
aclnnInplaceAdds: Phase2 = phase2("aclnnInplaceAdds")
aclnnSubGetWorkspaceSize: Phase1 = phase1("aclnnSub")
aclnnSub: Phase2 = phase2("aclnnSub")
aclnnInplaceSubGetWorkspaceSize: Phase1 = phase1("aclnnInplaceSub")
aclnnInplaceSub: Phase2 = phase2("aclnnInplaceSub")
aclnnSubsGetWorkspaceSize: Phase1 = phase1("aclnnSubs")
aclnnSubs: Phase2 = phase2("aclnnSubs")
aclnnInplaceSubsGetWorkspaceSize: Phase1 = phase1("aclnnInplaceSubs")
aclnnInplaceSubs: Phase2 = phase2("aclnnInplaceSubs")
aclnnMulGetWorkspaceSize: Phase1 = phase1("aclnnMul")
aclnnMul: Phase2 = phase2("aclnnMul")
aclnnInplaceMulGetWorkspaceSize: Phase1 = phase1("aclnnInplaceMul")
aclnnInplaceMul: Phase2 = phase2("aclnnInplaceMul")
aclnnMulsGetWorkspaceSize: Phase1 = phase1("aclnnMuls")
aclnnMuls: Phase2 = phase2("aclnnMuls")
aclnnInplaceMulsGetWorkspaceSize: Phase1 = phase1("aclnnInplaceMuls")
aclnnInplaceMuls: Phase2 = phase2("aclnnInplaceMuls")
aclnnDivGetWorkspaceSize: Phase1 = phase1("aclnnDiv")
aclnnDiv: Phase2 = phase2("aclnnDiv")
aclnnInplaceDivGetWorkspaceSize: Phase1 = phase1("aclnnInplaceDiv")
aclnnInplaceDiv: Phase2 = phase2("aclnnInplaceDiv")
aclnnDivsGetWorkspaceSize: Phase1 = phase1("aclnnDivs")
aclnnDivs: Phase2 = phase2("aclnnDivs")
aclnnInplaceDivsGetWorkspaceSize: Phase1 = phase1("aclnnInplaceDivs")
aclnnInplaceDivs: Phase2 = phase2("aclnnInplaceDivs")
aclnnCastGetWorkspaceSize: Phase1 = phase1("aclnnCast")
aclnnCast: Phase2 = phase2("aclnnCast")
aclnnEqTensorGetWorkspaceSize: Phase1 = phase1("aclnnEqTensor")
aclnnEqTensor: Phase2 = phase2("aclnnEqTensor")
aclnnInplaceEqTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceEqTensor")
aclnnInplaceEqTensor: Phase2 = phase2("aclnnInplaceEqTensor")
aclnnGtTensorGetWorkspaceSize: Phase1 = phase1("aclnnGtTensor")
aclnnGtTensor: Phase2 = phase2("aclnnGtTensor")
aclnnInplaceGtTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceGtTensor")
aclnnInplaceGtTensor: Phase2 = phase2("aclnnInplaceGtTensor")
aclnnGtScalarGetWorkspaceSize: Phase1 = phase1("aclnnGtScalar")
aclnnGtScalar: Phase2 = phase2("aclnnGtScalar")
aclnnInplaceGtScalarGetWorkspaceSize: Phase1 = phase1("aclnnInplaceGtScalar")
aclnnInplaceGtScalar: Phase2 = phase2("aclnnInplaceGtScalar")
aclnnAbsGetWorkspaceSize: Phase1 = phase1("aclnnAbs")
aclnnAbs: Phase2 = phase2("aclnnAbs")
aclnnNegGetWorkspaceSize: Phase1 = phase1("aclnnNeg")
aclnnNeg: Phase2 = phase2("aclnnNeg")
aclnnInplaceNegGetWorkspaceSize: Phase1 = phase1("aclnnInplaceNeg")
aclnnInplaceNeg: Phase2 = phase2("aclnnInplaceNeg")
aclnnExpGetWorkspaceSize: Phase1 = phase1("aclnnExp")
aclnnExp: Phase2 = phase2("aclnnExp")
aclnnInplaceExpGetWorkspaceSize: Phase1 = phase1("aclnnInplaceExp")
aclnnInplaceExp: Phase2 = phase2("aclnnInplaceExp")
aclnnLogGetWorkspaceSize: Phase1 = phase1("aclnnLog")
aclnnLog: Phase2 = phase2("aclnnLog")
aclnnInplaceLogGetWorkspaceSize: Phase1 = phase1("aclnnInplaceLog")
aclnnInplaceLog: Phase2 = phase2("aclnnInplaceLog")
aclnnSqrtGetWorkspaceSize: Phase1 = phase1("aclnnSqrt")
aclnnSqrt: Phase2 = phase2("aclnnSqrt")
aclnnInplaceSqrtGetWorkspaceSize: Phase1 = phase1("aclnnInplaceSqrt")
aclnnInplaceSqrt: Phase2 = phase2("aclnnInplaceSqrt")
aclnnRsqrtGetWorkspaceSize: Phase1 = phase1("aclnnRsqrt")
aclnnRsqrt: Phase2 = phase2("aclnnRsqrt")
aclnnInplaceRsqrtGetWorkspaceSize: Phase1 = phase1("aclnnInplaceRsqrt")
aclnnInplaceRsqrt: Phase2 = phase2("aclnnInplaceRsqrt")
aclnnReluGetWorkspaceSize: Phase1 = phase1("aclnnRelu")
aclnnRelu: Phase2 = phase2("aclnnRelu")
aclnnInplaceReluGetWorkspaceSize: Phase1 = phase1("aclnnInplaceRelu")
aclnnInplaceRelu: Phase2 = phase2("aclnnInplaceRelu")
aclnnSigmoidGetWorkspaceSize: Phase1 = phase1("aclnnSigmoid")
aclnnSigmoid: Phase2 = phase2("aclnnSigmoid")
aclnnInplaceSigmoidGetWorkspaceSize: Phase1 = phase1("aclnnInplaceSigmoid")
aclnnInplaceSigmoid: Phase2 = phase2("aclnnInplaceSigmoid")
aclnnGeluGetWorkspaceSize: Phase1 = phase1("aclnnGelu")
aclnnGelu: Phase2 = phase2("aclnnGelu")
aclnnSiluGetWorkspaceSize: Phase1 = phase1("aclnnSilu")
aclnnSilu: Phase2 = phase2("aclnnSilu")
aclnnTanhGetWorkspaceSize: Phase1 = phase1("aclnnTanh")
aclnnTanh: Phase2 = phase2("aclnnTanh")
aclnnInplaceTanhGetWorkspaceSize: Phase1 = phase1("aclnnInplaceTanh")
aclnnInplaceTanh: Phase2 = phase2("aclnnInplaceTanh")
aclnnReduceSumGetWorkspaceSize: Phase1 = phase1("aclnnReduceSum")
aclnnReduceSum: Phase2 = phase2("aclnnReduceSum")
aclnnMeanGetWorkspaceSize: Phase1 = phase1("aclnnMean")
aclnnMean: Phase2 = phase2("aclnnMean")
aclnnAmaxGetWorkspaceSize: Phase1 = phase1("aclnnAmax")
aclnnAmax: Phase2 = phase2("aclnnAmax")
aclnnSoftmaxGetWorkspaceSize: Phase1 = phase1("aclnnSoftmax")
aclnnSoftmax: Phase2 = phase2("aclnnSoftmax")
aclnnLayerNormGetWorkspaceSize: Phase1 = phase1("aclnnLayerNorm")
aclnnLayerNorm: Phase2 = phase2("aclnnLayerNorm")
aclnnLayerNormWithImplModeGetWorkspaceSize: Phase1 = phase1("aclnnLayerNormWithImplMode")
aclnnLayerNormWithImplMode: Phase2 = phase2("aclnnLayerNormWithImplMode")
aclnnRmsNormGetWorkspaceSize: Phase1 = phase1("aclnnRmsNorm")
aclnnRmsNorm: Phase2 = phase2("aclnnRmsNorm")
aclnnMmGetWorkspaceSize: Phase1 = phase1("aclnnMm")
aclnnMm: Phase2 = phase2("aclnnMm")
aclnnMatmulGetWorkspaceSize: Phase1 = phase1("aclnnMatmul")
aclnnMatmul: Phase2 = phase2("aclnnMatmul")
aclnnBatchMatMulGetWorkspaceSize: Phase1 = phase1("aclnnBatchMatMul")
aclnnBatchMatMul: Phase2 = phase2("aclnnBatchMatMul")
aclnnPermuteGetWorkspaceSize: Phase1 = phase1("aclnnPermute")
aclnnPermute: Phase2 = phase2("aclnnPermute")
aclnnInplaceCopyGetWorkspaceSize: Phase1 = phase1("aclnnInplaceCopy")
aclnnInplaceCopy: Phase2 = phase2("aclnnInplaceCopy")
aclnnInplaceFillScalarGetWorkspaceSize: Phase1 = phase1("aclnnInplaceFillScalar")
aclnnInplaceFillScalar: Phase2 = phase2("aclnnInplaceFillScalar")
aclnnInplaceZeroGetWorkspaceSize: Phase1 = phase1("aclnnInplaceZero")
aclnnInplaceZero: Phase2 = phase2("aclnnInplaceZero")
aclnnCatGetWorkspaceSize: Phase1 = phase1("aclnnCat")
aclnnCat: Phase2 = phase2("aclnnCat")
aclnnTriuGetWorkspaceSize: Phase1 = phase1("aclnnTriu")
aclnnTriu: Phase2 = phase2("aclnnTriu")
aclnnInplaceTriuGetWorkspaceSize: Phase1 = phase1("aclnnInplaceTriu")
aclnnInplaceTriu: Phase2 = phase2("aclnnInplaceTriu")
aclnnTrilGetWorkspaceSize: Phase1 = phase1("aclnnTril")
aclnnTril: Phase2 = phase2("aclnnTril")
aclnnInplaceTrilGetWorkspaceSize: Phase1 = phase1("aclnnInplaceTril")
aclnnInplaceTril: Phase2 = phase2("aclnnInplaceTril")
aclnnRollGetWorkspaceSize: Phase1 = phase1("aclnnRoll")
aclnnRoll: Phase2 = phase2("aclnnRoll")
aclnnRepeatGetWorkspaceSize: Phase1 = phase1("aclnnRepeat")
aclnnRepeat: Phase2 = phase2("aclnnRepeat")
aclnnGatherV2GetWorkspaceSize: Phase1 = phase1("aclnnGatherV2")
aclnnGatherV2: Phase2 = phase2("aclnnGatherV2")
aclnnIndexSelectGetWorkspaceSize: Phase1 = phase1("aclnnIndexSelect")
aclnnIndexSelect: Phase2 = phase2("aclnnIndexSelect")
aclnnSWhereGetWorkspaceSize: Phase1 = phase1("aclnnSWhere")
aclnnSWhere: Phase2 = phase2("aclnnSWhere")
aclnnStackGetWorkspaceSize: Phase1 = phase1("aclnnStack")
aclnnStack: Phase2 = phase2("aclnnStack")
aclnnSliceGetWorkspaceSize: Phase1 = phase1("aclnnSlice")
aclnnSlice: Phase2 = phase2("aclnnSlice")
aclnnNonzeroGetWorkspaceSize: Phase1 = phase1("aclnnNonzero")
aclnnNonzero: Phase2 = phase2("aclnnNonzero")
aclnnMaskedSelectGetWorkspaceSize: Phase1 = phase1("aclnnMaskedSelect")
aclnnMaskedSelect: Phase2 = phase2("aclnnMaskedSelect")
aclnnOneHotGetWorkspaceSize: Phase1 = phase1("aclnnOneHot")
aclnnOneHot: Phase2 = phase2("aclnnOneHot")
aclnnIndexFillTensorGetWorkspaceSize: Phase1 = phase1("aclnnIndexFillTensor")
aclnnIndexFillTensor: Phase2 = phase2("aclnnIndexFillTensor")
aclnnInplaceIndexFillTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceIndexFillTensor")
aclnnInplaceIndexFillTensor: Phase2 = phase2("aclnnInplaceIndexFillTensor")
aclnnSearchSortedGetWorkspaceSize: Phase1 = phase1("aclnnSearchSorted")
aclnnSearchSorted: Phase2 = phase2("aclnnSearchSorted")
aclnnSearchSortedsGetWorkspaceSize: Phase1 = phase1("aclnnSearchSorteds")
aclnnSearchSorteds: Phase2 = phase2("aclnnSearchSorteds")
aclnnCummaxGetWorkspaceSize: Phase1 = phase1("aclnnCummax")
aclnnCummax: Phase2 = phase2("aclnnCummax")
aclnnAtanGetWorkspaceSize: Phase1 = phase1("aclnnAtan")
aclnnAtan: Phase2 = phase2("aclnnAtan")
aclnnInplaceAtanGetWorkspaceSize: Phase1 = phase1("aclnnInplaceAtan")
aclnnInplaceAtan: Phase2 = phase2("aclnnInplaceAtan")
aclnnCosGetWorkspaceSize: Phase1 = phase1("aclnnCos")
aclnnCos: Phase2 = phase2("aclnnCos")
aclnnInplaceCosGetWorkspaceSize: Phase1 = phase1("aclnnInplaceCos")
aclnnInplaceCos: Phase2 = phase2("aclnnInplaceCos")
aclnnSinGetWorkspaceSize: Phase1 = phase1("aclnnSin")
aclnnSin: Phase2 = phase2("aclnnSin")
aclnnInplaceSinGetWorkspaceSize: Phase1 = phase1("aclnnInplaceSin")
aclnnInplaceSin: Phase2 = phase2("aclnnInplaceSin")
aclnnFloorGetWorkspaceSize: Phase1 = phase1("aclnnFloor")
aclnnFloor: Phase2 = phase2("aclnnFloor")
aclnnInplaceFloorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceFloor")
aclnnInplaceFloor: Phase2 = phase2("aclnnInplaceFloor")
aclnnReciprocalGetWorkspaceSize: Phase1 = phase1("aclnnReciprocal")
aclnnReciprocal: Phase2 = phase2("aclnnReciprocal")
aclnnInplaceReciprocalGetWorkspaceSize: Phase1 = phase1("aclnnInplaceReciprocal")
aclnnInplaceReciprocal: Phase2 = phase2("aclnnInplaceReciprocal")
aclnnSignGetWorkspaceSize: Phase1 = phase1("aclnnSign")
aclnnSign: Phase2 = phase2("aclnnSign")
aclnnPowTensorScalarGetWorkspaceSize: Phase1 = phase1("aclnnPowTensorScalar")
aclnnPowTensorScalar: Phase2 = phase2("aclnnPowTensorScalar")
aclnnInplacePowTensorScalarGetWorkspaceSize: Phase1 = phase1("aclnnInplacePowTensorScalar")
aclnnInplacePowTensorScalar: Phase2 = phase2("aclnnInplacePowTensorScalar")
aclnnPowScalarTensorGetWorkspaceSize: Phase1 = phase1("aclnnPowScalarTensor")
aclnnPowScalarTensor: Phase2 = phase2("aclnnPowScalarTensor")
aclnnPowTensorTensorGetWorkspaceSize: Phase1 = phase1("aclnnPowTensorTensor")
aclnnPowTensorTensor: Phase2 = phase2("aclnnPowTensorTensor")
aclnnInplacePowTensorTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplacePowTensorTensor")
aclnnInplacePowTensorTensor: Phase2 = phase2("aclnnInplacePowTensorTensor")
aclnnLeakyReluGetWorkspaceSize: Phase1 = phase1("aclnnLeakyRelu")
aclnnLeakyRelu: Phase2 = phase2("aclnnLeakyRelu")
aclnnInplaceLeakyReluGetWorkspaceSize: Phase1 = phase1("aclnnInplaceLeakyRelu")
aclnnInplaceLeakyRelu: Phase2 = phase2("aclnnInplaceLeakyRelu")
aclnnEluGetWorkspaceSize: Phase1 = phase1("aclnnElu")
aclnnElu: Phase2 = phase2("aclnnElu")
aclnnInplaceEluGetWorkspaceSize: Phase1 = phase1("aclnnInplaceElu")
aclnnInplaceElu: Phase2 = phase2("aclnnInplaceElu")
aclnnHardswishGetWorkspaceSize: Phase1 = phase1("aclnnHardswish")
aclnnHardswish: Phase2 = phase2("aclnnHardswish")
aclnnInplaceHardswishGetWorkspaceSize: Phase1 = phase1("aclnnInplaceHardswish")
aclnnInplaceHardswish: Phase2 = phase2("aclnnInplaceHardswish")
aclnnHardsigmoidGetWorkspaceSize: Phase1 = phase1("aclnnHardsigmoid")
aclnnHardsigmoid: Phase2 = phase2("aclnnHardsigmoid")
aclnnInplaceHardsigmoidGetWorkspaceSize: Phase1 = phase1("aclnnInplaceHardsigmoid")
aclnnInplaceHardsigmoid: Phase2 = phase2("aclnnInplaceHardsigmoid")
aclnnSoftplusGetWorkspaceSize: Phase1 = phase1("aclnnSoftplus")
aclnnSoftplus: Phase2 = phase2("aclnnSoftplus")
aclnnGeluV2GetWorkspaceSize: Phase1 = phase1("aclnnGeluV2")
aclnnGeluV2: Phase2 = phase2("aclnnGeluV2")
aclnnThresholdGetWorkspaceSize: Phase1 = phase1("aclnnThreshold")
aclnnThreshold: Phase2 = phase2("aclnnThreshold")
aclnnInplaceThresholdGetWorkspaceSize: Phase1 = phase1("aclnnInplaceThreshold")
aclnnInplaceThreshold: Phase2 = phase2("aclnnInplaceThreshold")
aclnnGeTensorGetWorkspaceSize: Phase1 = phase1("aclnnGeTensor")
aclnnGeTensor: Phase2 = phase2("aclnnGeTensor")
aclnnInplaceGeTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceGeTensor")
aclnnInplaceGeTensor: Phase2 = phase2("aclnnInplaceGeTensor")
aclnnLtTensorGetWorkspaceSize: Phase1 = phase1("aclnnLtTensor")
aclnnLtTensor: Phase2 = phase2("aclnnLtTensor")
aclnnInplaceLtTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceLtTensor")
aclnnInplaceLtTensor: Phase2 = phase2("aclnnInplaceLtTensor")
aclnnLeTensorGetWorkspaceSize: Phase1 = phase1("aclnnLeTensor")
aclnnLeTensor: Phase2 = phase2("aclnnLeTensor")
aclnnInplaceLeTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceLeTensor")
aclnnInplaceLeTensor: Phase2 = phase2("aclnnInplaceLeTensor")
aclnnNeTensorGetWorkspaceSize: Phase1 = phase1("aclnnNeTensor")
aclnnNeTensor: Phase2 = phase2("aclnnNeTensor")
aclnnInplaceNeTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceNeTensor")
aclnnInplaceNeTensor: Phase2 = phase2("aclnnInplaceNeTensor")
aclnnMaximumGetWorkspaceSize: Phase1 = phase1("aclnnMaximum")
aclnnMaximum: Phase2 = phase2("aclnnMaximum")
aclnnMinimumGetWorkspaceSize: Phase1 = phase1("aclnnMinimum")
aclnnMinimum: Phase2 = phase2("aclnnMinimum")
aclnnLogicalAndGetWorkspaceSize: Phase1 = phase1("aclnnLogicalAnd")
aclnnLogicalAnd: Phase2 = phase2("aclnnLogicalAnd")
aclnnInplaceLogicalAndGetWorkspaceSize: Phase1 = phase1("aclnnInplaceLogicalAnd")
aclnnInplaceLogicalAnd: Phase2 = phase2("aclnnInplaceLogicalAnd")
aclnnLogicalOrGetWorkspaceSize: Phase1 = phase1("aclnnLogicalOr")
aclnnLogicalOr: Phase2 = phase2("aclnnLogicalOr")
aclnnInplaceLogicalOrGetWorkspaceSize: Phase1 = phase1("aclnnInplaceLogicalOr")
aclnnInplaceLogicalOr: Phase2 = phase2("aclnnInplaceLogicalOr")
aclnnLogicalNotGetWorkspaceSize: Phase1 = phase1("aclnnLogicalNot")
aclnnLogicalNot: Phase2 = phase2("aclnnLogicalNot")
aclnnInplaceLogicalNotGetWorkspaceSize: Phase1 = phase1("aclnnInplaceLogicalNot")
aclnnInplaceLogicalNot: Phase2 = phase2("aclnnInplaceLogicalNot")
aclnnBitwiseAndTensorGetWorkspaceSize: Phase1 = phase1("aclnnBitwiseAndTensor")
aclnnBitwiseAndTensor: Phase2 = phase2("aclnnBitwiseAndTensor")
aclnnInplaceBitwiseAndTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceBitwiseAndTensor")
aclnnInplaceBitwiseAndTensor: Phase2 = phase2("aclnnInplaceBitwiseAndTensor")
aclnnBitwiseOrTensorGetWorkspaceSize: Phase1 = phase1("aclnnBitwiseOrTensor")
aclnnBitwiseOrTensor: Phase2 = phase2("aclnnBitwiseOrTensor")
aclnnInplaceBitwiseOrTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceBitwiseOrTensor")
aclnnInplaceBitwiseOrTensor: Phase2 = phase2("aclnnInplaceBitwiseOrTensor")
aclnnBitwiseNotGetWorkspaceSize: Phase1 = phase1("aclnnBitwiseNot")
aclnnBitwiseNot: Phase2 = phase2("aclnnBitwiseNot")
aclnnClampGetWorkspaceSize: Phase1 = phase1("aclnnClamp")
aclnnClamp: Phase2 = phase2("aclnnClamp")
aclnnClampMinGetWorkspaceSize: Phase1 = phase1("aclnnClampMin")
aclnnClampMin: Phase2 = phase2("aclnnClampMin")
aclnnClampMaxGetWorkspaceSize: Phase1 = phase1("aclnnClampMax")
aclnnClampMax: Phase2 = phase2("aclnnClampMax")
aclnnInplaceClampMaxGetWorkspaceSize: Phase1 = phase1("aclnnInplaceClampMax")
aclnnInplaceClampMax: Phase2 = phase2("aclnnInplaceClampMax")
aclnnClampTensorGetWorkspaceSize: Phase1 = phase1("aclnnClampTensor")
aclnnClampTensor: Phase2 = phase2("aclnnClampTensor")
aclnnClampMinTensorGetWorkspaceSize: Phase1 = phase1("aclnnClampMinTensor")
aclnnClampMinTensor: Phase2 = phase2("aclnnClampMinTensor")
aclnnInplaceClampMinTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceClampMinTensor")
aclnnInplaceClampMinTensor: Phase2 = phase2("aclnnInplaceClampMinTensor")
aclnnClampMaxTensorGetWorkspaceSize: Phase1 = phase1("aclnnClampMaxTensor")
aclnnClampMaxTensor: Phase2 = phase2("aclnnClampMaxTensor")
aclnnInplaceClampMaxTensorGetWorkspaceSize: Phase1 = phase1("aclnnInplaceClampMaxTensor")
aclnnInplaceClampMaxTensor: Phase2 = phase2("aclnnInplaceClampMaxTensor")
aclnnArangeGetWorkspaceSize: Phase1 = phase1("aclnnArange")
aclnnArange: Phase2 = phase2("aclnnArange")
aclnnLinspaceGetWorkspaceSize: Phase1 = phase1("aclnnLinspace")
aclnnLinspace: Phase2 = phase2("aclnnLinspace")
aclnnInplaceOneGetWorkspaceSize: Phase1 = phase1("aclnnInplaceOne")
aclnnInplaceOne: Phase2 = phase2("aclnnInplaceOne")
aclnnArgMaxGetWorkspaceSize: Phase1 = phase1("aclnnArgMax")
aclnnArgMax: Phase2 = phase2("aclnnArgMax")
aclnnCumsumGetWorkspaceSize: Phase1 = phase1("aclnnCumsum")
aclnnCumsum: Phase2 = phase2("aclnnCumsum")
aclnnCumsumV2GetWorkspaceSize: Phase1 = phase1("aclnnCumsumV2")
aclnnCumsumV2: Phase2 = phase2("aclnnCumsumV2")
aclnnSortGetWorkspaceSize: Phase1 = phase1("aclnnSort")
aclnnSort: Phase2 = phase2("aclnnSort")
aclnnArgsortGetWorkspaceSize: Phase1 = phase1("aclnnArgsort")
aclnnArgsort: Phase2 = phase2("aclnnArgsort")
aclnnTopkGetWorkspaceSize: Phase1 = phase1("aclnnTopk")
aclnnTopk: Phase2 = phase2("aclnnTopk")
aclnnNormGetWorkspaceSize: Phase1 = phase1("aclnnNorm")
aclnnNorm: Phase2 = phase2("aclnnNorm")
aclnnLogSoftmaxGetWorkspaceSize: Phase1 = phase1("aclnnLogSoftmax")
aclnnLogSoftmax: Phase2 = phase2("aclnnLogSoftmax")
aclnnAddRmsNormGetWorkspaceSize: Phase1 = phase1("aclnnAddRmsNorm")
aclnnAddRmsNorm: Phase2 = phase2("aclnnAddRmsNorm")
aclnnGroupNormGetWorkspaceSize: Phase1 = phase1("aclnnGroupNorm")
aclnnGroupNorm: Phase2 = phase2("aclnnGroupNorm")
aclnnBatchNormGetWorkspaceSize: Phase1 = phase1("aclnnBatchNorm")
aclnnBatchNorm: Phase2 = phase2("aclnnBatchNorm")
aclnnSwiGluGetWorkspaceSize: Phase1 = phase1("aclnnSwiGlu")
aclnnSwiGlu: Phase2 = phase2("aclnnSwiGlu")
aclnnGeGluGetWorkspaceSize: Phase1 = phase1("aclnnGeGlu")
aclnnGeGlu: Phase2 = phase2("aclnnGeGlu")
aclnnGeGluV3GetWorkspaceSize: Phase1 = phase1("aclnnGeGluV3")
aclnnGeGluV3: Phase2 = phase2("aclnnGeGluV3")
aclnnConstantPadNdGetWorkspaceSize: Phase1 = phase1("aclnnConstantPadNd")
aclnnConstantPadNd: Phase2 = phase2("aclnnConstantPadNd")
aclnnReflectionPad1dGetWorkspaceSize: Phase1 = phase1("aclnnReflectionPad1d")
aclnnReflectionPad1d: Phase2 = phase2("aclnnReflectionPad1d")
aclnnRepeatInterleaveIntGetWorkspaceSize: Phase1 = phase1("aclnnRepeatInterleaveInt")
aclnnRepeatInterleaveInt: Phase2 = phase2("aclnnRepeatInterleaveInt")
aclnnRepeatInterleaveIntWithDimGetWorkspaceSize: Phase1 = phase1("aclnnRepeatInterleaveIntWithDim")
aclnnRepeatInterleaveIntWithDim: Phase2 = phase2("aclnnRepeatInterleaveIntWithDim")
aclnnRepeatInterleaveGetWorkspaceSize: Phase1 = phase1("aclnnRepeatInterleave")
aclnnRepeatInterleave: Phase2 = phase2("aclnnRepeatInterleave")
aclnnRepeatInterleaveWithDimGetWorkspaceSize: Phase1 = phase1("aclnnRepeatInterleaveWithDim")
aclnnRepeatInterleaveWithDim: Phase2 = phase2("aclnnRepeatInterleaveWithDim")
aclnnIndexCopyGetWorkspaceSize: Phase1 = phase1("aclnnIndexCopy")
aclnnIndexCopy: Phase2 = phase2("aclnnIndexCopy")
aclnnInplaceIndexCopyGetWorkspaceSize: Phase1 = phase1("aclnnInplaceIndexCopy")
aclnnInplaceIndexCopy: Phase2 = phase2("aclnnInplaceIndexCopy")
aclnnIndexPutImplGetWorkspaceSize: Phase1 = phase1("aclnnIndexPutImpl")
aclnnIndexPutImpl: Phase2 = phase2("aclnnIndexPutImpl")
aclnnRotaryPositionEmbeddingGetWorkspaceSize: Phase1 = phase1("aclnnRotaryPositionEmbedding")
aclnnRotaryPositionEmbedding: Phase2 = phase2("aclnnRotaryPositionEmbedding")
aclnnFlashAttentionScoreGetWorkspaceSize: Phase1 = phase1("aclnnFlashAttentionScore")
aclnnFlashAttentionScore: Phase2 = phase2("aclnnFlashAttentionScore")
aclnnFlashAttentionScoreV2GetWorkspaceSize: Phase1 = phase1("aclnnFlashAttentionScoreV2")
aclnnFlashAttentionScoreV2: Phase2 = phase2("aclnnFlashAttentionScoreV2")
aclnnFusedInferAttentionScoreV2GetWorkspaceSize: Phase1 = phase1("aclnnFusedInferAttentionScoreV2")
aclnnFusedInferAttentionScoreV2: Phase2 = phase2("aclnnFusedInferAttentionScoreV2")
aclnnSigmoidBackwardGetWorkspaceSize: Phase1 = phase1("aclnnSigmoidBackward")
aclnnSigmoidBackward: Phase2 = phase2("aclnnSigmoidBackward")
aclnnSiluBackwardGetWorkspaceSize: Phase1 = phase1("aclnnSiluBackward")
aclnnSiluBackward: Phase2 = phase2("aclnnSiluBackward")
aclnnGeluBackwardGetWorkspaceSize: Phase1 = phase1("aclnnGeluBackward")
aclnnGeluBackward: Phase2 = phase2("aclnnGeluBackward")
aclnnHardswishBackwardGetWorkspaceSize: Phase1 = phase1("aclnnHardswishBackward")
aclnnHardswishBackward: Phase2 = phase2("aclnnHardswishBackward")
aclnnThresholdBackwardGetWorkspaceSize: Phase1 = phase1("aclnnThresholdBackward")
aclnnThresholdBackward: Phase2 = phase2("aclnnThresholdBackward")
aclnnSoftmaxBackwardGetWorkspaceSize: Phase1 = phase1("aclnnSoftmaxBackward")
aclnnSoftmaxBackward: Phase2 = phase2("aclnnSoftmaxBackward")
aclnnLogSoftmaxBackwardGetWorkspaceSize: Phase1 = phase1("aclnnLogSoftmaxBackward")
aclnnLogSoftmaxBackward: Phase2 = phase2("aclnnLogSoftmaxBackward")
aclnnRmsNormGradGetWorkspaceSize: Phase1 = phase1("aclnnRmsNormGrad")
aclnnRmsNormGrad: Phase2 = phase2("aclnnRmsNormGrad")
aclnnBatchNormBackwardGetWorkspaceSize: Phase1 = phase1("aclnnBatchNormBackward")
aclnnBatchNormBackward: Phase2 = phase2("aclnnBatchNormBackward")
aclnnSoftmaxCrossEntropyWithLogitsGetWorkspaceSize: Phase1 = phase1("aclnnSoftmaxCrossEntropyWithLogits")
aclnnSoftmaxCrossEntropyWithLogits: Phase2 = phase2("aclnnSoftmaxCrossEntropyWithLogits")
aclnnDropoutDoMaskGetWorkspaceSize: Phase1 = phase1("aclnnDropoutDoMask")
aclnnDropoutDoMask: Phase2 = phase2("aclnnDropoutDoMask")
aclnnUpsampleNearest2dGetWorkspaceSize: Phase1 = phase1("aclnnUpsampleNearest2d")
aclnnUpsampleNearest2d: Phase2 = phase2("aclnnUpsampleNearest2d")
aclnnUpsampleNearest2dBackwardGetWorkspaceSize: Phase1 = phase1("aclnnUpsampleNearest2dBackward")
aclnnUpsampleNearest2dBackward: Phase2 = phase2("aclnnUpsampleNearest2dBackward")
aclnnUpsampleBilinear2dGetWorkspaceSize: Phase1 = phase1("aclnnUpsampleBilinear2d")
aclnnUpsampleBilinear2d: Phase2 = phase2("aclnnUpsampleBilinear2d")
aclnnUpsampleBilinear2dBackwardGetWorkspaceSize: Phase1 = phase1("aclnnUpsampleBilinear2dBackward")
aclnnUpsampleBilinear2dBackward: Phase2 = phase2("aclnnUpsampleBilinear2dBackward")
aclnnMvGetWorkspaceSize: Phase1 = phase1("aclnnMv")
aclnnMv: Phase2 = phase2("aclnnMv")
aclnnTriangularSolveGetWorkspaceSize: Phase1 = phase1("aclnnTriangularSolve")
aclnnTriangularSolve: Phase2 = phase2("aclnnTriangularSolve")
aclnnWeightQuantBatchMatmulV2GetWorkspaceSize: Phase1 = phase1("aclnnWeightQuantBatchMatmulV2")
aclnnWeightQuantBatchMatmulV2: Phase2 = phase2("aclnnWeightQuantBatchMatmulV2")
aclnnTransMatmulWeightGetWorkspaceSize: Phase1 = phase1("aclnnTransMatmulWeight")
aclnnTransMatmulWeight: Phase2 = phase2("aclnnTransMatmulWeight")
aclnnConvolutionGetWorkspaceSize: Phase1 = phase1("aclnnConvolution")
aclnnConvolution: Phase2 = phase2("aclnnConvolution")
aclnnConvolutionBackwardGetWorkspaceSize: Phase1 = phase1("aclnnConvolutionBackward")
aclnnConvolutionBackward: Phase2 = phase2("aclnnConvolutionBackward")
aclnnIm2colGetWorkspaceSize: Phase1 = phase1("aclnnIm2col")
aclnnIm2col: Phase2 = phase2("aclnnIm2col")
aclnnMaxPoolGetWorkspaceSize: Phase1 = phase1("aclnnMaxPool")
aclnnMaxPool: Phase2 = phase2("aclnnMaxPool")
aclnnAvgPool2dGetWorkspaceSize: Phase1 = phase1("aclnnAvgPool2d")
aclnnAvgPool2d: Phase2 = phase2("aclnnAvgPool2d")

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
