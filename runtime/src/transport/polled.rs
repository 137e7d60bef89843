//! The process's stdin and stdout, polled by the runtime.
//!
//! Read and written by threads of their own, each request crosses three
//! threads (stdin's reader, a worker of the runtime, stdout's writer), and
//! waking a thread costs more than answering a listing or a trivial call.
//! Polled by the runtime's reactor instead, a request is read, answered and
//! written by the one worker that was woken for it.
//!
//! Polling takes ends that can wait without blocking, made so without
//! changing how anyone else sees the process's stdin and stdout (a flag set
//! on them would be set on the client's terminal, or on the shell's): a
//! pipe is opened again through `/proc/self/fd`, a file description of our
//! own that alone is made non-blocking; a socket is read and written with
//! the `MSG_DONTWAIT` flag of each call. A terminal, a file, `/dev/null`,
//! or any other system than Linux keeps the threads.

use std::fs::File;
use std::io::{self, Read, Write};
use std::mem::ManuallyDrop;
use std::os::fd::{AsRawFd, FromRawFd, RawFd};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use tokio::io::unix::AsyncFd;
use tokio::io::{AsyncRead, AsyncWrite, Interest, ReadBuf};

/// One of the process's standard streams, polled by the runtime.
pub(crate) struct Polled(AsyncFd<Stream>);

/// A standard stream, as it can be used without blocking.
enum Stream {
    /// A pipe opened again, non-blocking.
    Pipe(File),
    /// A socket (the process's own descriptor, never closed here).
    Socket(RawFd),
}

impl AsRawFd for Stream {
    fn as_raw_fd(&self) -> RawFd {
        match self {
            Stream::Pipe(file) => file.as_raw_fd(),
            Stream::Socket(fd) => *fd,
        }
    }
}

impl Stream {
    /// Descriptor `fd` (0 or 1) as a stream that does not block, if it is a
    /// pipe or a socket.
    fn of(fd: RawFd, output: bool) -> Option<Stream> {
        // SAFETY: the process's standard descriptors stay open while it
        // serves, and ManuallyDrop keeps this File from closing one.
        let standard = ManuallyDrop::new(unsafe { File::from_raw_fd(fd) });
        let kind = standard.metadata().ok()?.file_type();
        if kind.is_socket() {
            return Some(Stream::Socket(fd));
        }
        if !kind.is_fifo() {
            return None;
        }
        std::fs::OpenOptions::new()
            .read(!output)
            .write(output)
            .custom_flags(libc::O_NONBLOCK)
            .open(format!("/proc/self/fd/{fd}"))
            .ok()
            .map(Stream::Pipe)
    }

    fn read(&self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Pipe(file) => (&*file).read(buf),
            // SAFETY: `buf` is valid for writes of its length.
            Stream::Socket(fd) => Stream::transferred(unsafe {
                libc::recv(*fd, buf.as_mut_ptr().cast(), buf.len(), libc::MSG_DONTWAIT)
            }),
        }
    }

    /// Writes what it can of `bufs`: all of them to a pipe, the first that
    /// is not empty to a socket. How much was written, of how much tried.
    fn write_vectored(&self, bufs: &[io::IoSlice<'_>]) -> io::Result<(usize, usize)> {
        match self {
            Stream::Pipe(file) => {
                let tried = bufs.iter().map(|buf| buf.len()).sum();
                Ok(((&*file).write_vectored(bufs)?, tried))
            }
            Stream::Socket(fd) => {
                let first = bufs.iter().find(|buf| !buf.is_empty());
                let first = first.map_or(&[][..], |buf| &buf[..]);
                // SAFETY: `first` is valid for reads of its length.
                let sent = Stream::transferred(unsafe {
                    libc::send(
                        *fd,
                        first.as_ptr().cast(),
                        first.len(),
                        libc::MSG_DONTWAIT | libc::MSG_NOSIGNAL,
                    )
                })?;
                Ok((sent, first.len()))
            }
        }
    }

    fn transferred(returned: isize) -> io::Result<usize> {
        usize::try_from(returned).map_err(|_| io::Error::last_os_error())
    }
}

/// The process's stdin and stdout, polled by the runtime, when both can be
/// (see the module doc); `None` leaves them to threads.
///
/// Registering with the reactor panics on a runtime built without IO, so
/// that is tried on a task of its own, whose panic is only a `None`.
pub(crate) async fn stdin_and_stdout() -> Option<(Polled, Polled)> {
    let input = Stream::of(0, false)?;
    let output = Stream::of(1, true)?;
    let registered = tokio::spawn(async move {
        // SAFETY: each descriptor stays open, and the same, while its
        // AsyncFd lives: a reopened pipe is owned by it, and the process's
        // standard descriptors are not closed while it serves on them.
        let input = unsafe { AsyncFd::register_with_interest(input, Interest::READABLE) }.ok()?;
        let output = unsafe { AsyncFd::register_with_interest(output, Interest::WRITABLE) }.ok()?;
        Some((Polled(input), Polled(output)))
    });
    registered.await.ok().flatten()
}

impl AsyncRead for Polled {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        loop {
            let mut ready = ready!(self.0.poll_read_ready(cx))?;
            match ready.try_io(|stream| stream.get_ref().read(buf.initialize_unfilled())) {
                Ok(Ok(read)) => {
                    // A short read emptied the stream: the next waits for
                    // more instead of asking to be told it would block.
                    if read > 0 && buf.remaining() > read {
                        ready.clear_ready();
                    }
                    buf.advance(read);
                    return Poll::Ready(Ok(()));
                }
                Ok(Err(error)) if error.kind() == io::ErrorKind::Interrupted => continue,
                Ok(Err(error)) => return Poll::Ready(Err(error)),
                Err(_would_block) => continue,
            }
        }
    }
}

impl AsyncWrite for Polled {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.poll_write_vectored(cx, &[io::IoSlice::new(buf)])
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        loop {
            let mut ready = ready!(self.0.poll_write_ready(cx))?;
            match ready.try_io(|stream| stream.get_ref().write_vectored(bufs)) {
                Ok(Err(error)) if error.kind() == io::ErrorKind::Interrupted => continue,
                Ok(Err(error)) => return Poll::Ready(Err(error)),
                Ok(Ok((written, tried))) => {
                    if written < tried {
                        ready.clear_ready();
                    }
                    return Poll::Ready(Ok(written));
                }
                Err(_would_block) => continue,
            }
        }
    }

    fn is_write_vectored(&self) -> bool {
        matches!(self.0.get_ref(), Stream::Pipe(_))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        // Nothing is buffered: each write went to the pipe or the socket.
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<io::Result<()>> {
        // stdout stays open until the process exits, as on the threads.
        Poll::Ready(Ok(()))
    }
}
