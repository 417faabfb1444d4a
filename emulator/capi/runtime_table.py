"""The prototype table, ACL runtime part: acl.h / acl_rt.h functions with their pyACL names.

Each row is the C declaration (parameter names as the CANN headers spell them) and the pyACL
function that is its Python face. A row without a pyACL name is a C-only call (real pyACL wraps
no such function): its Python face is the function of that C name in ``emulator.acl.C_ONLY``.
The natural failure status of a runtime call is ACL_ERROR_INVALID_PARAM (100000): what a null
out-pointer returns.
"""

from __future__ import annotations

from emulator.capi.proto import Proto, parse
from emulator.status import AclError

HEADER_BASE = "acl/acl_base.h"
HEADER_ACL = "acl/acl.h"
HEADER_RT = "acl/acl_rt.h"
HEADER_DVPP = "acl/ops/acl_dvpp.h"
INVALID_PARAM = int(AclError.ACL_ERROR_INVALID_PARAM)

# (pyACL name or None for a C-only call, C declaration, header)
ROWS: tuple[tuple[str | None, str, str], ...] = (
    ("acl.init", "aclError aclInit(const char *configPath)", HEADER_ACL),
    ("acl.finalize", "aclError aclFinalize(void)", HEADER_ACL),
    ("acl.finalize_reference", "aclError aclFinalizeReference(uint64_t *refCount)", HEADER_ACL),
    (
        "acl.get_version",
        "aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion)",
        HEADER_ACL,
    ),
    ("acl.get_soc_name", "const char *aclrtGetSocName(void)", HEADER_ACL),
    ("acl.get_recent_err_msg", "const char *aclGetRecentErrMsg(void)", HEADER_BASE),
    # devices
    ("acl.rt.set_device", "aclError aclrtSetDevice(int32_t deviceId)", HEADER_RT),
    ("acl.rt.reset_device", "aclError aclrtResetDevice(int32_t deviceId)", HEADER_RT),
    ("acl.rt.reset_device_force", "aclError aclrtResetDeviceForce(int32_t deviceId)", HEADER_RT),
    ("acl.rt.get_device", "aclError aclrtGetDevice(int32_t *deviceId)", HEADER_RT),
    ("acl.rt.get_device_count", "aclError aclrtGetDeviceCount(uint32_t *count)", HEADER_RT),
    ("acl.rt.get_run_mode", "aclError aclrtGetRunMode(aclrtRunMode *runMode)", HEADER_RT),
    ("acl.rt.synchronize_device", "aclError aclrtSynchronizeDevice(void)", HEADER_RT),
    (
        "acl.rt.synchronize_device_with_timeout",
        "aclError aclrtSynchronizeDeviceWithTimeout(int32_t timeout)",
        HEADER_RT,
    ),
    (
        "acl.rt.get_device_info",
        "aclError aclrtGetDeviceInfo(uint32_t deviceId, aclrtDevAttr attr, int64_t *value)",
        HEADER_RT,
    ),
    ("acl.rt.get_last_error", "aclError aclrtGetLastError(aclrtLastErrLevel level)", HEADER_RT),
    ("acl.rt.peek_at_last_error", "aclError aclrtPeekAtLastError(aclrtLastErrLevel level)", HEADER_RT),
    # contexts
    ("acl.rt.create_context", "aclError aclrtCreateContext(aclrtContext *context, int32_t deviceId)", HEADER_RT),
    ("acl.rt.destroy_context", "aclError aclrtDestroyContext(aclrtContext context)", HEADER_RT),
    ("acl.rt.set_context", "aclError aclrtSetCurrentContext(aclrtContext context)", HEADER_RT),
    ("acl.rt.get_context", "aclError aclrtGetCurrentContext(aclrtContext *context)", HEADER_RT),
    (
        "acl.rt.ctx_get_current_default_stream",
        "aclError aclrtCtxGetCurrentDefaultStream(aclrtStream *stream)",
        HEADER_RT,
    ),
    # streams
    ("acl.rt.create_stream", "aclError aclrtCreateStream(aclrtStream *stream)", HEADER_RT),
    (
        "acl.rt.create_stream_with_config",
        "aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag)",
        HEADER_RT,
    ),
    ("acl.rt.destroy_stream", "aclError aclrtDestroyStream(aclrtStream stream)", HEADER_RT),
    ("acl.rt.destroy_stream_force", "aclError aclrtDestroyStreamForce(aclrtStream stream)", HEADER_RT),
    ("acl.rt.synchronize_stream", "aclError aclrtSynchronizeStream(aclrtStream stream)", HEADER_RT),
    (
        "acl.rt.synchronize_stream_with_timeout",
        "aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout)",
        HEADER_RT,
    ),
    ("acl.rt.stream_query", "aclError aclrtStreamQuery(aclrtStream stream, aclrtStreamStatus *status)", HEADER_RT),
    # events
    ("acl.rt.create_event", "aclError aclrtCreateEvent(aclrtEvent *event)", HEADER_RT),
    (
        "acl.rt.create_event_with_flag",
        "aclError aclrtCreateEventWithFlag(aclrtEvent *event, uint32_t flag)",
        HEADER_RT,
    ),
    (
        "acl.rt.create_event_ex_with_flag",
        "aclError aclrtCreateEventExWithFlag(aclrtEvent *event, uint32_t flag)",
        HEADER_RT,
    ),
    ("acl.rt.destroy_event", "aclError aclrtDestroyEvent(aclrtEvent event)", HEADER_RT),
    ("acl.rt.record_event", "aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream)", HEADER_RT),
    ("acl.rt.reset_event", "aclError aclrtResetEvent(aclrtEvent event, aclrtStream stream)", HEADER_RT),
    ("acl.rt.stream_wait_event", "aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event)", HEADER_RT),
    ("acl.rt.query_event", "aclError aclrtQueryEvent(aclrtEvent event, aclrtEventStatus *status)", HEADER_RT),
    (
        "acl.rt.query_event_status",
        "aclError aclrtQueryEventStatus(aclrtEvent event, aclrtEventRecordedStatus *status)",
        HEADER_RT,
    ),
    ("acl.rt.synchronize_event", "aclError aclrtSynchronizeEvent(aclrtEvent event)", HEADER_RT),
    (
        "acl.rt.synchronize_event_with_timeout",
        "aclError aclrtSynchronizeEventWithTimeout(aclrtEvent event, int32_t timeout)",
        HEADER_RT,
    ),
    (
        "acl.rt.event_elapsed_time",
        "aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent)",
        HEADER_RT,
    ),
    # memory
    (
        "acl.rt.malloc",
        "aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy)",
        HEADER_RT,
    ),
    (
        "acl.rt.malloc_cached",
        "aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy)",
        HEADER_RT,
    ),
    (
        "acl.rt.malloc_align32",
        "aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy)",
        HEADER_RT,
    ),
    ("acl.rt.free", "aclError aclrtFree(void *devPtr)", HEADER_RT),
    ("acl.rt.malloc_host", "aclError aclrtMallocHost(void **hostPtr, size_t size)", HEADER_RT),
    ("acl.rt.free_host", "aclError aclrtFreeHost(void *hostPtr)", HEADER_RT),
    ("acl.rt.get_mem_info", "aclError aclrtGetMemInfo(aclrtMemAttr attr, size_t *free, size_t *total)", HEADER_RT),
    (
        "acl.rt.memcpy",
        "aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind)",
        HEADER_RT,
    ),
    (
        "acl.rt.memcpy_async",
        "aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, "
        "aclrtMemcpyKind kind, aclrtStream stream)",
        HEADER_RT,
    ),
    (
        "acl.rt.memset",
        "aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count)",
        HEADER_RT,
    ),
    (
        "acl.rt.memset_async",
        "aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count, aclrtStream stream)",
        HEADER_RT,
    ),
    # data buffers
    ("acl.create_data_buffer", "aclDataBuffer *aclCreateDataBuffer(void *data, size_t size)", HEADER_BASE),
    ("acl.destroy_data_buffer", "aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer)", HEADER_BASE),
    (
        "acl.update_data_buffer",
        "aclError aclUpdateDataBuffer(aclDataBuffer *dataBuffer, void *data, size_t size)",
        HEADER_BASE,
    ),
    ("acl.get_data_buffer_addr", "void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer)", HEADER_BASE),
    ("acl.get_data_buffer_size", "uint32_t aclGetDataBufferSize(const aclDataBuffer *dataBuffer)", HEADER_BASE),
    ("acl.get_data_buffer_size_v2", "size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer)", HEADER_BASE),
    ("acl.data_type_size", "size_t aclDataTypeSize(aclDataType dataType)", HEADER_BASE),
    # tensor descriptors
    (
        "acl.create_tensor_desc",
        "aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims[numDims], "
        "aclFormat format)",
        HEADER_BASE,
    ),
    ("acl.destroy_tensor_desc", "void aclDestroyTensorDesc(const aclTensorDesc *desc)", HEADER_BASE),
    ("acl.get_tensor_desc_type", "aclDataType aclGetTensorDescType(const aclTensorDesc *desc)", HEADER_BASE),
    ("acl.get_tensor_desc_format", "aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc)", HEADER_BASE),
    ("acl.get_tensor_desc_size", "size_t aclGetTensorDescSize(const aclTensorDesc *desc)", HEADER_BASE),
    (
        "acl.get_tensor_desc_element_count",
        "size_t aclGetTensorDescElementCount(const aclTensorDesc *desc)",
        HEADER_BASE,
    ),
    ("acl.get_tensor_desc_num_dims", "size_t aclGetTensorDescNumDims(const aclTensorDesc *desc)", HEADER_BASE),
    (
        "acl.get_tensor_desc_dim_v2",
        "aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize)",
        HEADER_BASE,
    ),
    # callbacks and reports
    ("acl.rt.subscribe_report", "aclError aclrtSubscribeReport(uint64_t threadId, aclrtStream stream)", HEADER_RT),
    (
        "acl.rt.unsubscribe_report",
        "aclError aclrtUnSubscribeReport(uint64_t threadId, aclrtStream stream)",
        HEADER_RT,
    ),
    (
        "acl.rt.launch_callback",
        "aclError aclrtLaunchCallback(aclrtCallback fn, void *userData@object, aclrtCallbackBlockType blockType, "
        "aclrtStream stream)",
        HEADER_RT,
    ),
    ("acl.rt.process_report", "aclError aclrtProcessReport(int32_t timeout)", HEADER_RT),
    # logging
    (
        "acl.app_log",
        "void aclAppLog(aclLogLevel logLevel, const char *func@caller, const char *file@caller, "
        "uint32_t line@caller, const char *fmt, ...)",
        HEADER_BASE,
    ),
    # dvpp memory
    ("acl.media.dvpp_malloc", "aclError acldvppMalloc(void **devPtr, size_t size)", HEADER_DVPP),
    ("acl.media.dvpp_free", "aclError acldvppFree(void *devPtr)", HEADER_DVPP),
    # util
    (
        "acl.rt.get_device_utilization_rate",
        "aclError aclrtGetDeviceUtilizationRate(int32_t deviceId, aclrtUtilizationInfo *utilizationInfo)",
        HEADER_RT,
    ),
    # virtual memory
    (
        "acl.rt.mem_get_allocation_granularity",
        "aclError aclrtMemGetAllocationGranularity(aclrtPhysicalMemProp *prop, aclrtMemGranularityOptions option, "
        "size_t *granularity)",
        HEADER_RT,
    ),
    (
        "acl.rt.reserve_mem_address",
        "aclError aclrtReserveMemAddress(void **virPtr, size_t size, size_t alignment, void *expectPtr, "
        "uint64_t flags)",
        HEADER_RT,
    ),
    ("acl.rt.release_mem_address", "aclError aclrtReleaseMemAddress(void *virPtr)", HEADER_RT),
    (
        "acl.rt.malloc_physical",
        "aclError aclrtMallocPhysical(aclrtDrvMemHandle *handle, size_t size, const aclrtPhysicalMemProp *prop, "
        "uint64_t flags)",
        HEADER_RT,
    ),
    ("acl.rt.free_physical", "aclError aclrtFreePhysical(aclrtDrvMemHandle handle)", HEADER_RT),
    (
        "acl.rt.map_mem",
        "aclError aclrtMapMem(void *virPtr, size_t size, size_t offset, aclrtDrvMemHandle handle, uint64_t flags)",
        HEADER_RT,
    ),
    ("acl.rt.unmap_mem", "aclError aclrtUnmapMem(void *virPtr)", HEADER_RT),
    # peer access
    (
        "acl.rt.device_can_access_peer",
        "aclError aclrtDeviceCanAccessPeer(int32_t *canAccessPeer, int32_t deviceId, int32_t peerDeviceId)",
        HEADER_RT,
    ),
    (
        "acl.rt.device_enable_peer_access",
        "aclError aclrtDeviceEnablePeerAccess(int32_t peerDeviceId, uint32_t flags)",
        HEADER_RT,
    ),
    (
        "acl.rt.device_disable_peer_access",
        "aclError aclrtDeviceDisablePeerAccess(int32_t peerDeviceId)",
        HEADER_RT,
    ),
    # stream capture (C-only: real pyACL wraps none of the aclmdlRI calls)
    (None, "aclError aclmdlRICaptureBegin(aclrtStream stream, aclmdlRICaptureMode mode)", HEADER_RT),
    (
        None,
        "aclError aclmdlRICaptureGetInfo(aclrtStream stream, aclmdlRICaptureStatus *status, aclmdlRI *modelRI)",
        HEADER_RT,
    ),
    (None, "aclError aclmdlRICaptureEnd(aclrtStream stream, aclmdlRI *modelRI)", HEADER_RT),
    (None, "aclError aclmdlRIExecuteAsync(aclmdlRI modelRI, aclrtStream stream)", HEADER_RT),
    (None, "aclError aclmdlRIDestroy(aclmdlRI modelRI)", HEADER_RT),
    (None, "aclError aclmdlRICaptureThreadExchangeMode(aclmdlRICaptureMode *mode @inout)", HEADER_RT),
)


def _failure(declaration: str) -> int | None:
    return INVALID_PARAM if declaration.startswith("aclError") else None


RUNTIME: tuple[Proto, ...] = tuple(
    parse(decl, header=header, py_name=py_name, failure=_failure(decl)) for py_name, decl, header in ROWS
)
