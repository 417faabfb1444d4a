/* Two C threads, each on its own stream: device malloc / memcpy / free and a two-phase aclnnAdd,
 * repeated, with one failing call each whose aclGetRecentErrMsg must be that thread's own. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "acl/acl.h"
#include "aclnnop/aclnn_add.h"

#define N 8
#define ROUNDS 20

typedef struct {
    int id;
    int failures;        /* statuses that were not ACL_SUCCESS where success was expected */
    int bad_rounds;      /* rounds whose result differed from self + alpha * other */
    float out[N];
    char message[512];   /* aclGetRecentErrMsg after this thread's own failing call */
    int cleared;         /* a second aclGetRecentErrMsg returned NULL */
} Job;

static pthread_barrier_t barrier;

static aclTensor *make_tensor(void *data) {
    int64_t shape[1] = {N};
    int64_t strides[1] = {1};
    return aclCreateTensor(shape, 1, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, shape, 1, data);
}

static void *worker(void *arg) {
    Job *job = (Job *)arg;
    aclrtStream stream = NULL;
    if (aclrtSetDevice(0) != ACL_SUCCESS || aclrtCreateStream(&stream) != ACL_SUCCESS) {
        job->failures++;
        return NULL;
    }
    float self[N], other[N];
    for (int i = 0; i < N; i++) {
        self[i] = (float)(i + 100 * job->id);
        other[i] = (float)(i % 3);
    }
    float alphaValue = (float)(job->id + 1);
    for (int round = 0; round < ROUNDS; round++) {
        void *selfDev = NULL, *otherDev = NULL, *outDev = NULL;
        size_t bytes = sizeof(self);
        job->failures += aclrtMalloc(&selfDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS;
        job->failures += aclrtMalloc(&otherDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS;
        job->failures += aclrtMalloc(&outDev, bytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS;
        job->failures += aclrtMemcpy(selfDev, bytes, self, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS;
        job->failures += aclrtMemcpy(otherDev, bytes, other, bytes, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS;
        aclTensor *s = make_tensor(selfDev), *o = make_tensor(otherDev), *out = make_tensor(outDev);
        aclScalar *alpha = aclCreateScalar(&alphaValue, ACL_FLOAT);
        uint64_t workspaceSize = 0;
        aclOpExecutor *executor = NULL;
        job->failures += aclnnAddGetWorkspaceSize(s, o, alpha, out, &workspaceSize, &executor) != ACL_SUCCESS;
        void *workspace = NULL;
        if (workspaceSize > 0) {
            job->failures += aclrtMalloc(&workspace, workspaceSize, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS;
        }
        job->failures += aclnnAdd(workspace, workspaceSize, executor, stream) != ACL_SUCCESS;
        job->failures += aclrtSynchronizeStream(stream) != ACL_SUCCESS;
        job->failures += aclrtMemcpy(job->out, bytes, outDev, bytes, ACL_MEMCPY_DEVICE_TO_HOST) != ACL_SUCCESS;
        int bad = 0;
        for (int i = 0; i < N; i++) {
            bad |= job->out[i] != self[i] + alphaValue * other[i];
        }
        job->bad_rounds += bad;
        aclDestroyTensor(s);
        aclDestroyTensor(o);
        aclDestroyTensor(out);
        aclDestroyScalar(alpha);
        if (workspace != NULL) {
            aclrtFree(workspace);
        }
        job->failures += aclrtFree(selfDev) != ACL_SUCCESS;
        job->failures += aclrtFree(otherDev) != ACL_SUCCESS;
        job->failures += aclrtFree(outDev) != ACL_SUCCESS;
    }
    /* Each thread fails its own way, both fail before either reads: the message is per thread. */
    if (job->id == 0) {
        void *p = NULL;
        aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST);
    } else {
        uint64_t ws = 0;
        aclOpExecutor *ex = NULL;
        aclnnAddGetWorkspaceSize(NULL, NULL, NULL, NULL, &ws, &ex);
    }
    pthread_barrier_wait(&barrier);
    const char *msg = aclGetRecentErrMsg();
    snprintf(job->message, sizeof(job->message), "%s", msg ? msg : "(null)");
    job->cleared = aclGetRecentErrMsg() == NULL;
    job->failures += aclrtDestroyStream(stream) != ACL_SUCCESS;
    job->failures += aclrtResetDevice(0) != ACL_SUCCESS;
    return NULL;
}

int main(void) {
    if (aclInit(NULL) != ACL_SUCCESS) {
        return 1;
    }
    pthread_barrier_init(&barrier, NULL, 2);
    Job jobs[2];
    pthread_t threads[2];
    memset(jobs, 0, sizeof(jobs));
    for (int t = 0; t < 2; t++) {
        jobs[t].id = t;
        pthread_create(&threads[t], NULL, worker, &jobs[t]);
    }
    for (int t = 0; t < 2; t++) {
        pthread_join(threads[t], NULL);
    }
    for (int t = 0; t < 2; t++) {
        printf("thread %d failures %d bad_rounds %d cleared %d\n", t, jobs[t].failures, jobs[t].bad_rounds,
               jobs[t].cleared);
        for (int i = 0; i < N; i++) {
            printf("thread%d[%d] is: %f\n", t, i, jobs[t].out[i]);
        }
        char *newline = strchr(jobs[t].message, '\n');
        if (newline != NULL) {
            *newline = '\0';
        }
        printf("message %d: %s\n", t, jobs[t].message);
    }
    pthread_barrier_destroy(&barrier);
    return aclFinalize() == ACL_SUCCESS ? 0 : 2;
}
