/* SIGINT while the program is inside aclrtSynchronizeStream (a queue of big Adds is draining).
 *
 * "handler": the program has its own SIGINT handler (installed without SA_RESTART, so an
 * interrupted system call returns EINTR); it must keep running: the synchronize returns 0, the
 * result is right, and later calls (another Add, frees, reset) work. "default": SIGINT keeps its
 * default action, and the program is terminated by it, as any C program is.
 * A helper thread sends the signal to the process 10 ms after the main thread enters the call; the
 * queue is long enough that the call is still draining then, however fast the kernels get. */
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "acl/acl.h"
#include "aclnn/acl_meta.h"
#include "aclnnop/aclnn_add.h"

#define N (4 << 20)
#define ROUNDS 240 /* at ~0.5-1 ms an Add, the synchronize lasts far longer than the 10 ms pause */

static volatile sig_atomic_t handled = 0, in_call = 0, during_call = 0;
static sem_t entering;

static void on_sigint(int sig) {
    (void)sig;
    handled += 1;
    during_call |= in_call;
}

static void *interrupter(void *unused) {
    (void)unused;
    sem_wait(&entering);
    struct timespec pause = {0, 10 * 1000 * 1000};
    nanosleep(&pause, NULL);
    kill(getpid(), SIGINT);
    return NULL;
}

static int add_rounds(aclrtStream stream, aclTensor *x, aclTensor *y, aclTensor *out, aclScalar *alpha, int rounds) {
    for (int i = 0; i < rounds; ++i) {
        uint64_t ws = 0;
        aclOpExecutor *executor = NULL;
        int ret = aclnnAddGetWorkspaceSize(x, y, alpha, out, &ws, &executor);
        if (ret != 0 || ws != 0) return ret ? ret : -1;
        ret = aclnnAdd(NULL, 0, executor, stream);
        if (ret != 0) return ret;
    }
    return 0;
}

int main(int argc, char **argv) {
    int with_handler = argc > 1 && strcmp(argv[1], "handler") == 0;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = with_handler ? on_sigint : SIG_DFL; /* no SA_RESTART; SIG_DFL even if started ignored */
    sigaction(SIGINT, &action, NULL);
    sem_init(&entering, 0, 0);
    size_t bytes = (size_t)N * sizeof(float);
    float *host = malloc(bytes);
    for (int i = 0; i < N; ++i) host[i] = (float)(i % 1000);
    void *x = NULL, *y = NULL, *out = NULL;
    aclrtStream stream = NULL;
    int64_t dims[1] = {N};
    float one = 1.0f;
    if (aclInit(NULL) || aclrtSetDevice(0) || aclrtCreateStream(&stream)) return 10;
    if (aclrtMalloc(&x, bytes, ACL_MEM_MALLOC_HUGE_FIRST) || aclrtMalloc(&y, bytes, ACL_MEM_MALLOC_HUGE_FIRST) ||
        aclrtMalloc(&out, bytes, ACL_MEM_MALLOC_HUGE_FIRST)) return 11;
    if (aclrtMemcpy(x, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE) ||
        aclrtMemcpy(y, bytes, host, bytes, ACL_MEMCPY_HOST_TO_DEVICE)) return 12;
    aclTensor *tx = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, x);
    aclTensor *ty = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, y);
    aclTensor *tout = aclCreateTensor(dims, 1, ACL_FLOAT, NULL, 0, ACL_FORMAT_ND, dims, 1, out);
    aclScalar *alpha = aclCreateScalar(&one, ACL_FLOAT);
    if (!tx || !ty || !tout || !alpha) return 13;
    int ret = add_rounds(stream, tx, ty, tout, alpha, ROUNDS);
    if (ret) return 14;
    pthread_t thread;
    pthread_create(&thread, NULL, interrupter, NULL);
    printf("synchronizing\n");
    fflush(stdout);
    in_call = 1;
    sem_post(&entering);
    ret = aclrtSynchronizeStream(stream);
    in_call = 0;
    pthread_join(thread, NULL);
    printf("sync %d handled %d during %d\n", ret, (int)handled, (int)during_call);
    if (aclrtMemcpy(host, bytes, out, bytes, ACL_MEMCPY_DEVICE_TO_HOST)) return 15;
    int wrong = 0;
    for (int i = 0; i < N; ++i) wrong += host[i] != 2.0f * (float)(i % 1000);
    printf("wrong %d\n", wrong);
    /* the emulator still works: one more Add, waited for, then everything released */
    ret = add_rounds(stream, tx, ty, tout, alpha, 1);
    printf("again %d %d\n", ret, (int)aclrtSynchronizeStream(stream));
    aclDestroyTensor(tx);
    aclDestroyTensor(ty);
    aclDestroyTensor(tout);
    aclDestroyScalar(alpha);
    aclrtFree(x);
    aclrtFree(y);
    aclrtFree(out);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    printf("finalize %d\n", (int)aclFinalize());
    free(host);
    return 0;
}
