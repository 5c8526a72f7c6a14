//! Heavy work (plans, predictions, reliability assessments) on a few workers of its own, so
//! that it never delays the light requests the runtime's threads answer: a request waits in a
//! short queue for a worker, or is answered 503 with Retry-After when the queue is full or
//! the deadline passes. Work nobody waits for any more (the client closed its connection, or
//! it was answered 503) is told to stop through its [`Cancel`] flag, which the engines' long
//! loops check, and gives its worker back within a step.

use crate::limits::{DEADLINE, QUEUE_PER_WORKER, RETRY_AFTER_SECONDS};
use crate::routes::Reply;
use model::cancel::Cancel;
use std::sync::Arc;
use tokio::sync::Semaphore;

/// The workers and the places in their queue.
#[derive(Clone)]
pub(crate) struct Heavy {
    /// Requests admitted: at work or waiting for a worker.
    admitted: Arc<Semaphore>,
    workers: Arc<Semaphore>,
}

/// Raises its flag when dropped: when the request's future ends, answered or abandoned.
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.cancel();
    }
}

impl Heavy {
    /// `workers` at work at once (at least one), and `QUEUE_PER_WORKER` waiting per worker.
    pub(crate) fn new(workers: usize) -> Heavy {
        let workers = workers.max(1);
        Heavy {
            admitted: Arc::new(Semaphore::new(workers * (1 + QUEUE_PER_WORKER))),
            workers: Arc::new(Semaphore::new(workers)),
        }
    }

    /// The reply of `work`, run on a worker once one is free; 503 when the queue is full or
    /// the deadline passes first. Its flag is raised once this future ends or is dropped.
    pub(crate) async fn run(&self, work: impl FnOnce(Cancel) -> Reply + Send + 'static) -> Reply {
        let Ok(place) = Arc::clone(&self.admitted).try_acquire_owned() else {
            return busy("every worker is busy and the queue is full; ask again in a few seconds");
        };
        let cancel = Cancel::new();
        let _stop_when_gone = CancelOnDrop(cancel.clone());
        let workers = Arc::clone(&self.workers);
        let answered = tokio::time::timeout(DEADLINE, async move {
            let worker = workers.acquire_owned().await.ok()?;
            tokio::task::spawn_blocking(move || {
                let _held = (place, worker);
                work(cancel)
            })
            .await
            .ok()
        });
        match answered.await {
            Ok(Some(reply)) => reply,
            Ok(None) => Reply::error(500, "internal error (a defect: please report it)"),
            Err(_) => busy(&format!(
                "no answer within {} s; ask for less (fewer disks, trials or sweep points), or again when the server is less busy",
                DEADLINE.as_secs()
            )),
        }
    }
}

/// 503 Service Unavailable, asking to retry after a while.
fn busy(message: &str) -> Reply {
    Reply::error(503, message).retry_after(RETRY_AFTER_SECONDS)
}
