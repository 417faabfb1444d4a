/* An async callback sample in C: a report thread loops on aclrtProcessReport, the main thread copies
 * to the device, launches a blocking and a non-blocking callback, synchronises and checks that each
 * callback ran on the report thread after the copy. Then the acl_base.h objects, dvpp memory,
 * ACL_APP_LOG and the utilization query, each with a failure status. Prints one line per check. */
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include "acl/acl.h"
#include "acl/ops/acl_dvpp.h"

static aclrtContext context;
static volatile int running = 1;
static pthread_t report_thread;
static int seen[2];
static pthread_t ran_on[2];
static void *device_buffer;

static void *report_loop(void *arg) {
    (void)arg;
    aclrtSetCurrentContext(context);
    while (running) {
        aclrtProcessReport(50);
    }
    return NULL;
}

static void on_done(void *user_data) {
    int which = *(int *)user_data;
    int host[4] = {0};
    aclrtMemcpy(host, sizeof host, device_buffer, sizeof host, ACL_MEMCPY_DEVICE_TO_HOST);
    seen[which] = host[3];
    ran_on[which] = pthread_self();
}

int main(void) {
    int values[4] = {1, 2, 3, 42};
    int first = 0, second = 1;
    aclrtStream stream = NULL;
    if (aclInit(NULL) != 0 || aclrtSetDevice(0) != 0) return 1;
    aclrtGetCurrentContext(&context);
    aclrtCreateStream(&stream);
    aclrtMalloc(&device_buffer, sizeof values, ACL_MEM_MALLOC_HUGE_FIRST);
    printf("launch-unsubscribed %d\n", (int)aclrtLaunchCallback(on_done, &first, ACL_CALLBACK_BLOCK, stream));
    printf("process-unsubscribed %d\n", (int)aclrtProcessReport(10));
    printf("process-timeout-0 %d\n", (int)aclrtProcessReport(0));
    pthread_create(&report_thread, NULL, report_loop, NULL);
    printf("subscribe %d\n", (int)aclrtSubscribeReport((uint64_t)report_thread, stream));
    printf("subscribe-again %d\n", (int)aclrtSubscribeReport((uint64_t)report_thread, stream));
    aclrtMemcpyAsync(device_buffer, sizeof values, values, sizeof values, ACL_MEMCPY_HOST_TO_DEVICE, stream);
    printf("launch-block %d\n", (int)aclrtLaunchCallback(on_done, &first, ACL_CALLBACK_BLOCK, stream));
    printf("launch-bad-type %d\n", (int)aclrtLaunchCallback(on_done, &first, (aclrtCallbackBlockType)7, stream));
    printf("sync %d\n", (int)aclrtSynchronizeStream(stream));
    printf("block-saw %d on-report-thread %d\n", seen[0], pthread_equal(ran_on[0], report_thread) != 0);
    printf("launch-noblock %d\n", (int)aclrtLaunchCallback(on_done, &second, ACL_CALLBACK_NO_BLOCK, stream));
    while (ran_on[1] == 0) {
        struct timespec pause = {0, 1000000};
        nanosleep(&pause, NULL);
    }
    printf("noblock-saw %d on-report-thread %d\n", seen[1], pthread_equal(ran_on[1], report_thread) != 0);
    printf("unsubscribe %d\n", (int)aclrtUnSubscribeReport((uint64_t)report_thread, stream));
    printf("unsubscribe-again %d\n", (int)aclrtUnSubscribeReport((uint64_t)report_thread, stream));
    running = 0;
    pthread_join(report_thread, NULL);

    aclDataBuffer *buffer = aclCreateDataBuffer(device_buffer, sizeof values);
    printf("buffer %d %d %d\n", aclGetDataBufferAddr(buffer) == device_buffer, (int)aclGetDataBufferSize(buffer),
           (int)aclGetDataBufferSizeV2(buffer));
    printf("buffer-destroy %d null %d\n", (int)aclDestroyDataBuffer(buffer), (int)aclDestroyDataBuffer(NULL));
    int64_t dims[3] = {2, 3, 4};
    aclTensorDesc *desc = aclCreateTensorDesc(ACL_FLOAT16, 3, dims, ACL_FORMAT_ND);
    int64_t dim = 0;
    aclError dim_ret = aclGetTensorDescDimV2(desc, 2, &dim);
    int64_t last = dim;
    printf("desc %d %d %lld size %d past-end %d\n", (int)aclGetTensorDescNumDims(desc), (int)dim_ret, (long long)last,
           (int)aclGetTensorDescSize(desc), (int)aclGetTensorDescDimV2(desc, 3, &dim));
    aclDestroyTensorDesc(desc);
    void *dvpp = NULL;
    int dvpp_ret = (int)acldvppMalloc(&dvpp, 100);
    int aligned = ((uintptr_t)dvpp % 128) == 0;
    int freed = (int)acldvppFree(dvpp);
    printf("dvpp %d aligned %d free %d zero %d\n", dvpp_ret, aligned, freed, (int)acldvppMalloc(&dvpp, 0));
    ACL_APP_LOG(ACL_ERROR, "app line %d from %s", 7, "C");
    aclrtUtilizationInfo info;
    memset(&info, 0x55, sizeof info);
    info.utilizationExtend = NULL;
    int rate_ret = (int)aclrtGetDeviceUtilizationRate(0, &info);
    printf("utilization %d %d %d bad-device %d\n", rate_ret, info.cubeUtilization, info.memoryUtilization,
           (int)aclrtGetDeviceUtilizationRate(99, &info));
    aclrtFree(device_buffer);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    printf("done\n");
    return 0;
}
