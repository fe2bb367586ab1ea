// SPDX-License-Identifier: MIT
/*
 * The workers of the io_uring pipeline: take a chunk from `todo`,
 * transform it from its known column, put it on `done` and wake the
 * reader through an eventfd (which the reader has a read posted on, so it
 * sleeps in one place: io_uring_enter).  Only the empty -> non-empty change
 * of `done` signals; the reader drains the whole list on each wake-up.
 * The queue needs no bound of its own: its items are pool buffers.
 * With a record transform each worker thread has its own transform state
 * and writes a chunk's outputs into that chunk's output buffer.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/transform.h"
#include "uring.h"

static struct chunk *pop_todo(struct wq *q)
{
	struct chunk *ch;

	pthread_mutex_lock(&q->lock);
	while (!q->todo && !q->stop)
		pthread_cond_wait(&q->cond, &q->lock);
	ch = q->todo;
	if (ch) {
		q->todo = ch->next;
		if (!q->todo)
			q->todo_tail = NULL;
	}
	pthread_mutex_unlock(&q->lock);
	return ch;
}

/* ch at the tail of the list head..tail (the caller holds the lock). */
static void list_append(struct chunk **head, struct chunk **tail, struct chunk *ch)
{
	ch->next = NULL;
	if (*tail)
		(*tail)->next = ch;
	else
		*head = ch;
	*tail = ch;
}

static void push_done(struct wq *q, struct chunk *ch)
{
	bool was_empty;

	pthread_mutex_lock(&q->lock);
	was_empty = !q->done;
	list_append(&q->done, &q->done_tail, ch);
	pthread_mutex_unlock(&q->lock);
	if (was_empty)
		eventfd_write(q->efd, 1);
}

/* Make ch->out hold need bytes (its contents need not survive). */
static int out_room(struct chunk *ch, size_t need)
{
	uint8_t *p;

	if (need <= ch->out_cap)
		return 0;
	p = malloc(need);
	if (!p)
		return -ENOMEM;
	free(ch->out);
	ch->out = p;
	ch->out_cap = need;
	return 0;
}

/* ch's records (its head, then its body) into ch->out: 0 or -errno. */
static int run_records(struct xform_worker *w, struct chunk *ch)
{
	const uint8_t *body = ch->buf + ch->bstart;
	size_t blen = ch->bend - ch->bstart;
	ssize_t h = 0, b;
	int ret;

	ret = out_room(ch, xform_out_bound(w->x, ch->head, ch->head_len) +
			   xform_out_bound(w->x, body, blen) + 1);
	if (ret)
		return ret;
	if (ch->head_len && (h = xform_run(w, ch->head, ch->head_len, ch->out)) < 0)
		return (int)h;
	b = xform_run(w, body, blen, ch->out + h);
	if (b < 0)
		return (int)b;
	ch->out_len = (size_t)(h + b);
	return 0;
}

/* A worker of a record transform: its own state (init/fini once). */
static void *record_worker(struct wq *q)
{
	struct xform_worker w;
	int init = xform_worker_init(q->xf, &w);
	struct chunk *ch;

	while ((ch = pop_todo(q))) {
		ch->out_len = 0;
		ch->err = init;
		if (!init && !__atomic_load_n(&q->abort, __ATOMIC_RELAXED))
			ch->err = run_records(&w, ch);
		push_done(q, ch);
	}
	if (!init)
		xform_worker_fini(&w);
	return NULL;
}

static void *worker(void *arg)
{
	struct wq *q = arg;
	struct chunk *ch;

	if (q->xf)
		return record_worker(q);
	while ((ch = pop_todo(q))) {
		uint64_t col = ch->col;

		if (!__atomic_load_n(&q->abort, __ATOMIC_RELAXED))
			transform_chunk(ch->buf, ch->got, q->work, &col);
		push_done(q, ch);
	}
	return NULL;
}

void uring_wq_push(struct wq *q, struct chunk *ch)
{
	pthread_mutex_lock(&q->lock);
	list_append(&q->todo, &q->todo_tail, ch);
	pthread_cond_signal(&q->cond);
	pthread_mutex_unlock(&q->lock);
}

/* Everything the workers finished since the last call, in order. */
struct chunk *uring_wq_take_done(struct wq *q)
{
	struct chunk *list;

	pthread_mutex_lock(&q->lock);
	list = q->done;
	q->done = q->done_tail = NULL;
	pthread_mutex_unlock(&q->lock);
	return list;
}

int uring_workers_start(struct uctx *c)
{
	struct wq *q = &c->wq;
	int ret;

	q->work = c->job->work;
	q->xf = job_xform_in_place(c->job) ? NULL : c->job->xform;
	q->efd = eventfd(0, EFD_CLOEXEC);
	if (q->efd < 0)
		return -errno;
	pthread_mutex_init(&q->lock, NULL);
	pthread_cond_init(&q->cond, NULL);
	c->tids = calloc(c->workers, sizeof(*c->tids));
	if (!c->tids)
		return -ENOMEM;
	for (; c->started < c->workers; c->started++) {
		ret = pthread_create(&c->tids[c->started], NULL, worker, q);
		if (ret)
			return -ret;
	}
	return 0;
}

void uring_workers_stop(struct uctx *c)
{
	struct wq *q = &c->wq;

	if (q->efd < 0)
		return;
	pthread_mutex_lock(&q->lock);
	q->stop = true;
	pthread_cond_broadcast(&q->cond);
	pthread_mutex_unlock(&q->lock);
	for (unsigned i = 0; i < c->started; i++)
		pthread_join(c->tids[i], NULL);
	free(c->tids);
	c->tids = NULL;
	pthread_cond_destroy(&q->cond);
	pthread_mutex_destroy(&q->lock);
	close(q->efd);
	q->efd = -1;
}
