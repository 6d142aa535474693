#include "TransportShims.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int qt_try_write3(uv_stream_t *stream,
                  const void *prefix, size_t prefixLength,
                  const void *body, size_t bodyLength,
                  const void *suffix, size_t suffixLength) {
    uv_buf_t bufs[3];
    unsigned int count = 0;
    if (prefixLength > 0) bufs[count++] = uv_buf_init((char *)prefix, (unsigned int)prefixLength);
    if (bodyLength > 0) bufs[count++] = uv_buf_init((char *)body, (unsigned int)bodyLength);
    if (suffixLength > 0) bufs[count++] = uv_buf_init((char *)suffix, (unsigned int)suffixLength);
    if (count == 0) return 0;
    return uv_try_write(stream, bufs, count);
}

int qt_write(uv_write_t *request, uv_stream_t *stream, void *base, size_t length, uv_write_cb callback) {
    uv_buf_t buf = uv_buf_init((char *)base, (unsigned int)length);
    return uv_write(request, stream, &buf, 1, callback);
}

int qt_fs_read(uv_loop_t *loop, uv_fs_t *request, int fd, void *base, size_t length, uv_fs_cb callback) {
    uv_buf_t buf = uv_buf_init((char *)base, (unsigned int)length);
    return uv_fs_read(loop, request, fd, &buf, 1, -1, callback);
}

void qt_set_buf(uv_buf_t *buf, void *base, size_t length) {
    buf->base = (char *)base;
    buf->len = length;
}

void qt_ignore_sigpipe(void) {
    signal(SIGPIPE, SIG_IGN);
}

int qt_reopen_closed_std_fds(void) {
    for (int fd = 0; fd <= 2; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF) continue;
        int opened = open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY);
        if (opened < 0) return -errno;
        if (opened != fd) {
            // A lower std fd was also closed and got this one; dup into place.
            if (dup2(opened, fd) < 0) { int e = errno; close(opened); return -e; }
            close(opened);
        }
    }
    return 0;
}

long qt_send_with_descriptor(int socket, const void *base, size_t length, int fd) {
    union {
        struct cmsghdr header;
        char bytes[CMSG_SPACE(sizeof(int))];
    } control;
    memset(&control, 0, sizeof(control));
    struct iovec vector = {.iov_base = (void *)base, .iov_len = length};
    struct msghdr message = {0};
    message.msg_iov = &vector;
    message.msg_iovlen = 1;
    message.msg_control = control.bytes;
    message.msg_controllen = sizeof(control.bytes);
    struct cmsghdr *header = CMSG_FIRSTHDR(&message);
    header->cmsg_level = SOL_SOCKET;
    header->cmsg_type = SCM_RIGHTS;
    header->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(header), &fd, sizeof(int));
    ssize_t sent;
    do {
        sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    } while (sent < 0 && errno == EINTR);
    return sent < 0 ? -errno : (long)sent;
}
