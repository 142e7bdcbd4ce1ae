/* SPDX-License-Identifier: Apache-2.0 */
/*
 * A small thread pool with one primitive: parallel-for. Workers persist for
 * the pool's life; the calling thread joins in, so a pool of N threads runs N
 * items at a time with N-1 workers. Used for reading manifests and row groups
 * in parallel.
 */
#include "util.h"

#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <unistd.h>

typedef struct pool_job {
    int (*fn)(size_t i, void *payload);
    void *payload;
    size_t n;
    atomic_size_t next;
    atomic_size_t done;
    atomic_int first_rc;
    pthread_mutex_t err_lock;
    int err_code;
    char err_subsystem[32];
    char err_msg[1024];
} pool_job;

struct floe_pool {
    pthread_t *threads;
    int nthreads; /* workers + caller */
    int nworkers;
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_cond_t finished;
    pool_job *job;
    unsigned long generation;
    int busy_workers;
    bool stop;
};

static void run_items(pool_job *job)
{
    for (;;) {
        size_t i = atomic_fetch_add(&job->next, 1);
        if (i >= job->n)
            return;
        int rc = job->fn(i, job->payload);
        if (rc < 0) {
            int expected = 0;
            if (atomic_compare_exchange_strong(&job->first_rc, &expected, rc)) {
                const floe_error *e = floe_error_last();
                pthread_mutex_lock(&job->err_lock);
                job->err_code = rc;
                if (e) {
                    strncpy(job->err_subsystem, e->subsystem, sizeof job->err_subsystem - 1);
                    strncpy(job->err_msg, e->message, sizeof job->err_msg - 1);
                }
                pthread_mutex_unlock(&job->err_lock);
            }
        }
        atomic_fetch_add(&job->done, 1);
    }
}

static void *worker_main(void *arg)
{
    floe_pool *p = arg;
    unsigned long seen = 0;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (!p->stop && (p->job == NULL || p->generation == seen))
            pthread_cond_wait(&p->wake, &p->lock);
        if (p->stop)
            break;
        seen = p->generation;
        pool_job *job = p->job;
        p->busy_workers++;
        pthread_mutex_unlock(&p->lock);
        run_items(job);
        pthread_mutex_lock(&p->lock);
        p->busy_workers--;
        pthread_cond_broadcast(&p->finished);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

floe_pool *floe__pool_new(int threads)
{
    if (threads <= 0) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        threads = n > 0 ? (int)n : 1;
    }
    if (threads > 256)
        threads = 256;
    floe_pool *p = floe__calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->nthreads = threads;
    pthread_mutex_init(&p->lock, NULL);
    pthread_cond_init(&p->wake, NULL);
    pthread_cond_init(&p->finished, NULL);
    if (threads > 1) {
        p->threads = floe__calloc((size_t)threads - 1, sizeof *p->threads);
        if (!p->threads) {
            floe__pool_free(p);
            return NULL;
        }
        for (int i = 0; i < threads - 1; i++) {
            if (pthread_create(&p->threads[i], NULL, worker_main, p) != 0)
                break;
            p->nworkers++;
        }
    }
    return p;
}

void floe__pool_free(floe_pool *p)
{
    if (!p)
        return;
    pthread_mutex_lock(&p->lock);
    p->stop = true;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);
    for (int i = 0; i < p->nworkers; i++)
        pthread_join(p->threads[i], NULL);
    floe__free(p->threads);
    pthread_mutex_destroy(&p->lock);
    pthread_cond_destroy(&p->wake);
    pthread_cond_destroy(&p->finished);
    floe__free(p);
}

int floe__pool_threads(const floe_pool *p)
{
    return p ? p->nthreads : 1;
}

int floe__pool_for(floe_pool *p, size_t n, int (*fn)(size_t i, void *payload), void *payload)
{
    if (n == 0)
        return 0;
    if (!p || p->nworkers == 0 || n == 1) {
        int first = 0;
        for (size_t i = 0; i < n; i++) {
            int rc = fn(i, payload);
            if (rc < 0 && first == 0)
                first = rc;
        }
        return first;
    }
    pool_job job;
    memset(&job, 0, sizeof job);
    job.fn = fn;
    job.payload = payload;
    job.n = n;
    atomic_init(&job.next, 0);
    atomic_init(&job.done, 0);
    atomic_init(&job.first_rc, 0);
    pthread_mutex_init(&job.err_lock, NULL);

    pthread_mutex_lock(&p->lock);
    p->job = &job;
    p->generation++;
    pthread_cond_broadcast(&p->wake);
    pthread_mutex_unlock(&p->lock);

    run_items(&job);

    pthread_mutex_lock(&p->lock);
    while (atomic_load(&job.done) < n || p->busy_workers > 0)
        pthread_cond_wait(&p->finished, &p->lock);
    p->job = NULL;
    pthread_mutex_unlock(&p->lock);
    pthread_mutex_destroy(&job.err_lock);

    int rc = atomic_load(&job.first_rc);
    if (rc < 0) {
        if (rc == FLOE_ENOMEM)
            floe__error_nomem();
        else
            floe__error(rc, job.err_subsystem[0] ? job.err_subsystem : "pool", "%s",
                        job.err_msg);
    }
    return rc;
}
