#pragma once
#include <uv.h>
#include <stddef.h>

// Handle casts: Swift imports uv_pipe_t, uv_stream_t and uv_handle_t as unrelated
// structs, so every handle is kept as raw memory and viewed through these.
static inline uv_handle_t *qt_handle(void *p) { return (uv_handle_t *)p; }
static inline uv_stream_t *qt_stream(void *p) { return (uv_stream_t *)p; }
static inline uv_pipe_t *qt_pipe(void *p) { return (uv_pipe_t *)p; }
static inline uv_tty_t *qt_tty(void *p) { return (uv_tty_t *)p; }
static inline uv_signal_t *qt_signal(void *p) { return (uv_signal_t *)p; }
static inline uv_async_t *qt_async(void *p) { return (uv_async_t *)p; }
static inline uv_timer_t *qt_timer(void *p) { return (uv_timer_t *)p; }

/// Writes prefix, body and suffix with one writev, without blocking. Returns bytes
/// written or a negative libuv error (UV_EAGAIN when nothing could be written).
int qt_try_write3(uv_stream_t *stream,
                  const void *prefix, size_t prefixLength,
                  const void *body, size_t bodyLength,
                  const void *suffix, size_t suffixLength);

/// Queues one owned buffer on `stream`.
int qt_write(uv_write_t *request, uv_stream_t *stream, void *base, size_t length, uv_write_cb callback);

/// Reads from a file descriptor at its current position on the thread pool.
int qt_fs_read(uv_loop_t *loop, uv_fs_t *request, int fd, void *base, size_t length, uv_fs_cb callback);

/// Sets the buffer libuv reads into.
void qt_set_buf(uv_buf_t *buf, void *base, size_t length);

/// Sends `length` bytes over a Unix socket with `fd` attached (SCM_RIGHTS), blocking.
/// Returns bytes sent or -errno.
long qt_send_with_descriptor(int socket, const void *base, size_t length, int fd);

/// A reader that goes away must not kill the daemon.
void qt_ignore_sigpipe(void);

/// Opens /dev/null onto any of fds 0, 1, 2 that is closed, so later descriptors
/// (libuv's own included) never land there. Returns 0 or -errno.
int qt_reopen_closed_std_fds(void);

static inline uv_req_t *qt_req(void *p) { return (uv_req_t *)p; }
static inline uv_write_t *qt_write_req(void *p) { return (uv_write_t *)p; }
static inline uv_fs_t *qt_fs_req(void *p) { return (uv_fs_t *)p; }
