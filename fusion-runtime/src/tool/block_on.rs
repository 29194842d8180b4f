//! The small executor that answers an asynchronous handler on the calling thread
//! ([`ToolSet::call`](super::ToolSet::call)).

use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

/// Wakes a thread parked in [`block_on`].
struct ThreadWaker(std::thread::Thread);

impl Wake for ThreadWaker {
    fn wake(self: Arc<Self>) {
        self.0.unpark();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        self.0.unpark();
    }
}

/// Runs `future` to completion on this thread, parking it while the future is pending.
///
/// Enough for futures woken by other threads (channels, thread pools, timers of a runtime that
/// runs elsewhere); a future that needs *this* thread to drive a runtime (a current-thread
/// Tokio runtime's timers or sockets) never completes here: await [`ToolSet::call_async`](super::ToolSet::call_async) on
/// that runtime instead.
pub(super) fn block_on<F: Future>(future: F) -> F::Output {
    let mut future = std::pin::pin!(future);
    let waker = Waker::from(Arc::new(ThreadWaker(std::thread::current())));
    let mut cx = Context::from_waker(&waker);
    loop {
        if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
            return output;
        }
        // A spurious return from `park` only costs one more poll.
        std::thread::park();
    }
}
