//! Tasks kept in the server's memory: the default, for one process.

use super::{
    Budget, Ending, Owner, Reservation, Status, TaskLimits, TaskRefusal, TaskView, new_id, numbered,
};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use std::time::SystemTime;
use tokio::sync::Notify;
use tokio_util::sync::CancellationToken;

struct Cell {
    owner: Owner,
    created: SystemTime,
    cancel: CancellationToken,
    changed: Notify,
    state: Mutex<CellState>,
}

struct CellState {
    status: Status,
    status_message: Option<String>,
    updated: SystemTime,
    /// Answers delivered and not yet taken by the handler.
    answers: HashMap<String, Value>,
    /// Every key ever asked, so a key names one question for the task's life.
    issued: std::collections::HashSet<String>,
    /// The bytes of the result kept, counted against the board's budget.
    kept: usize,
    /// Set by `tasks/cancel`: however the handler ends, the task is cancelled.
    cancel_requested: bool,
}

/// The tasks of one server.
pub(crate) struct TaskBoard {
    limits: TaskLimits,
    cells: Mutex<HashMap<String, Arc<Cell>>>,
    /// Places reserved and not yet used, per caller: each counts as a task.
    reserved: Mutex<HashMap<String, usize>>,
    /// The bytes of results kept, in all and per counted caller.
    kept: Mutex<Kept>,
}

/// The bytes of results kept: in all, within [`TaskLimits::result_bytes`],
/// and per caller the limits count, within
/// [`TaskLimits::result_bytes_per_caller`].
#[derive(Default)]
struct Kept {
    all: usize,
    by_caller: HashMap<String, usize>,
}

impl Kept {
    /// The budget `bytes` more of `owner`'s would exceed, if any.
    fn exceeded(&self, limits: &TaskLimits, owner: &Owner, bytes: usize) -> Option<Budget> {
        if self.all + bytes > limits.result_bytes {
            return Some(Budget::All(limits.result_bytes));
        }
        let caller = self.by_caller.get(&owner.name).copied().unwrap_or(0);
        (owner.counted && caller + bytes > limits.result_bytes_per_caller)
            .then_some(Budget::PerCaller(limits.result_bytes_per_caller))
    }

    fn add(&mut self, owner: &Owner, bytes: usize) {
        self.all += bytes;
        if owner.counted {
            *self.by_caller.entry(owner.name.clone()).or_insert(0) += bytes;
        }
    }

    fn remove(&mut self, owner: &Owner, bytes: usize) {
        self.all -= bytes;
        if let Some(caller) = self.by_caller.get_mut(&owner.name) {
            *caller -= bytes;
            if *caller == 0 {
                self.by_caller.remove(&owner.name);
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic while the lock was held leaves plain data that is still whole.
    mutex.lock().unwrap_or_else(|p| p.into_inner())
}

impl TaskBoard {
    pub(crate) fn new(limits: TaskLimits) -> TaskBoard {
        TaskBoard {
            limits,
            cells: Mutex::new(HashMap::new()),
            reserved: Mutex::new(HashMap::new()),
            kept: Mutex::default(),
        }
    }

    fn release(&self, owner: &str) {
        let mut reserved = lock(&self.reserved);
        if let Some(count) = reserved.get_mut(owner) {
            *count -= 1;
            if *count == 0 {
                reserved.remove(owner);
            }
        }
    }

    /// Drops the tasks whose time to live has ended (a running one is
    /// cancelled first).
    fn sweep(&self, cells: &mut HashMap<String, Arc<Cell>>, now: SystemTime) {
        let ttl = self.limits.ttl;
        cells.retain(|_, cell| {
            let alive = now.duration_since(cell.created).unwrap_or_default() < ttl;
            if !alive {
                cell.cancel.cancel();
                let kept = lock(&cell.state).kept;
                lock(&self.kept).remove(&cell.owner, kept);
            }
            alive
        });
    }

    /// A place for a task of `owner`, if the limits leave one.
    pub(crate) fn reserve(self: &Arc<TaskBoard>, owner: &Owner) -> Option<Reservation> {
        let mut cells = lock(&self.cells);
        self.sweep(&mut cells, SystemTime::now());
        let mut reserved = lock(&self.reserved);
        let pending_all: usize = reserved.values().sum();
        if cells.len() + pending_all >= self.limits.total {
            return None;
        }
        if owner.counted {
            let kept = cells.values().filter(|c| c.owner == *owner).count();
            let pending = reserved.get(&owner.name).copied().unwrap_or(0);
            if kept + pending >= self.limits.per_caller {
                return None;
            }
        }
        let id = new_id()?;
        *reserved.entry(owner.name.clone()).or_insert(0) += 1;
        let board = self.clone();
        let releasing = owner.name.clone();
        Some(Reservation::new(
            owner,
            id,
            Box::new(move || board.release(&releasing)),
        ))
    }

    /// Creates a working task in `reservation`'s place; its cancellation
    /// reaches the handler through `cancel`.
    pub(crate) fn create(
        &self,
        mut reservation: Reservation,
        cancel: CancellationToken,
    ) -> TaskView {
        let id = reservation.id.clone();
        let now = SystemTime::now();
        let cell = Arc::new(Cell {
            owner: reservation.owner.clone(),
            created: now,
            cancel,
            changed: Notify::new(),
            state: Mutex::new(CellState {
                status: Status::Working,
                status_message: None,
                updated: now,
                answers: HashMap::new(),
                issued: Default::default(),
                kept: 0,
                cancel_requested: false,
            }),
        });
        let view = self.view(&id, &cell);
        let mut cells = lock(&self.cells);
        cells.insert(id, cell);
        drop(cells);
        reservation.take();
        self.release(&reservation.owner.name);
        view
    }

    fn view(&self, id: &str, cell: &Cell) -> TaskView {
        let state = lock(&cell.state);
        TaskView::new(
            &self.limits,
            id,
            state.status.clone(),
            state.status_message.clone(),
            cell.created,
            state.updated,
        )
    }

    fn cell(&self, owner: &str, id: &str) -> Result<Arc<Cell>, TaskRefusal> {
        let mut cells = lock(&self.cells);
        self.sweep(&mut cells, SystemTime::now());
        cells
            .get(id)
            .filter(|cell| cell.owner.name == owner)
            .cloned()
            .ok_or_else(|| TaskRefusal::Unknown(id.to_owned()))
    }

    /// `tasks/get`.
    pub(crate) fn get(&self, owner: &str, id: &str) -> Result<TaskView, TaskRefusal> {
        let cell = self.cell(owner, id)?;
        Ok(self.view(id, &cell))
    }

    /// `tasks/update`: answers to questions the task has open; answers to
    /// any other key (never asked, already answered) are ignored.
    pub(crate) fn update(
        &self,
        owner: &str,
        id: &str,
        responses: Map<String, Value>,
    ) -> Result<(), TaskRefusal> {
        let cell = self.cell(owner, id)?;
        {
            let mut state = lock(&cell.state);
            let Status::InputRequired(open) = &mut state.status else {
                return Ok(());
            };
            let mut taken = Vec::new();
            for (key, answer) in responses {
                if open.remove(&key).is_some() {
                    taken.push((key, answer));
                }
            }
            if taken.is_empty() {
                return Ok(());
            }
            if open.is_empty() {
                state.status = Status::Working;
            }
            state.answers.extend(taken);
            state.updated = SystemTime::now();
        }
        cell.changed.notify_waiters();
        Ok(())
    }

    /// `tasks/cancel`: the handler is told; a finished task stays as it is.
    pub(crate) fn cancel(&self, owner: &str, id: &str) -> Result<(), TaskRefusal> {
        let cell = self.cell(owner, id)?;
        {
            let mut state = lock(&cell.state);
            if matches!(state.status, Status::Working | Status::InputRequired(_)) {
                state.cancel_requested = true;
            }
        }
        cell.cancel.cancel();
        cell.changed.notify_waiters();
        Ok(())
    }

    fn running(&self, id: &str) -> Option<Arc<Cell>> {
        lock(&self.cells).get(id).cloned()
    }

    /// Opens a question of the running task `id` under `key` and waits for
    /// its answer. `None` when the task is gone or cancelled.
    pub(crate) async fn ask(&self, id: &str, key: &str, request: Value) -> Option<Value> {
        let cell = self.running(id)?;
        let key = {
            let mut state = lock(&cell.state);
            let mut n = 1;
            while state.issued.contains(&numbered(key, n)) {
                n += 1;
            }
            let key = numbered(key, n);
            state.issued.insert(key.clone());
            match &mut state.status {
                Status::InputRequired(open) => {
                    open.insert(key.clone(), request);
                }
                Status::Working => {
                    state.status = Status::InputRequired(BTreeMap::from([(key.clone(), request)]));
                }
                _ => return None,
            }
            state.updated = SystemTime::now();
            key
        };
        loop {
            let changed = cell.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            {
                let mut state = lock(&cell.state);
                if let Some(answer) = state.answers.remove(&key) {
                    return Some(answer);
                }
                if state.cancel_requested {
                    return None;
                }
            }
            changed.await;
        }
    }

    /// Sets the message a poll shows beside the status.
    pub(crate) fn say(&self, id: &str, message: String) {
        if let Some(cell) = self.running(id) {
            let mut state = lock(&cell.state);
            if !matches!(
                state.status,
                Status::Completed(_) | Status::Failed(_) | Status::Cancelled
            ) {
                state.status_message = Some(message);
                state.updated = SystemTime::now();
            }
        }
    }

    /// Ends the task `id` with its call's outcome; a task whose caller asked
    /// to cancel it ends cancelled whatever the handler returned.
    pub(crate) fn finish(&self, id: &str, ending: Option<Ending>) {
        let Some(cell) = self.running(id) else {
            return;
        };
        let mut state = lock(&cell.state);
        state.status = match ending {
            _ if state.cancel_requested => Status::Cancelled,
            None => Status::Cancelled,
            Some(Ending::Completed(result)) => {
                let bytes = Value::Object(result.clone()).to_string().len();
                let mut kept = lock(&self.kept);
                match kept.exceeded(&self.limits, &cell.owner, bytes) {
                    Some(budget) => {
                        tracing::warn!(
                            task = id,
                            bytes,
                            ?budget,
                            "a task's result was not kept: the results kept would exceed the limit"
                        );
                        Status::Completed(super::unkept(bytes, budget))
                    }
                    None => {
                        kept.add(&cell.owner, bytes);
                        state.kept = bytes;
                        Status::Completed(result)
                    }
                }
            }
            Some(Ending::Failed(error)) => Status::Failed(error),
        };
        state.answers.clear();
        state.updated = SystemTime::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::time::Duration;

    fn board(limits: TaskLimits) -> Arc<TaskBoard> {
        Arc::new(TaskBoard::new(limits))
    }

    fn named(name: &str) -> Owner {
        Owner::named(name.to_owned())
    }

    fn text(result: &Map<String, Value>) -> &str {
        result["content"][0]["text"].as_str().unwrap()
    }

    #[test]
    fn a_task_is_unknown_to_every_caller_but_its_own() {
        let board = board(TaskLimits::default());
        let place = board.reserve(&named("alice")).unwrap();
        let task = board.create(place, CancellationToken::new());
        assert_eq!(task.id.len(), 32);
        assert_eq!(
            board.get("alice", &task.id).unwrap().status,
            Status::Working
        );
        for (owner, id) in [("bob", task.id.as_str()), ("alice", "not-a-task")] {
            let refusal = board.get(owner, id).unwrap_err();
            assert!(refusal.to_string().starts_with(&format!("no task `{id}`")));
            assert!(board.cancel(owner, id).is_err());
            assert!(board.update(owner, id, Map::new()).is_err());
        }
    }

    #[test]
    fn a_caller_gets_no_more_places_than_its_limit() {
        let board = board(TaskLimits {
            per_caller: 2,
            ..TaskLimits::default()
        });
        let first = board.reserve(&named("alice")).unwrap();
        let _second = board.reserve(&named("alice")).unwrap();
        assert!(board.reserve(&named("alice")).is_none());
        assert!(board.reserve(&named("bob")).is_some());
        board.create(first, CancellationToken::new());
        assert!(board.reserve(&named("alice")).is_none());
        drop(_second);
        assert!(board.reserve(&named("alice")).is_some());
    }

    #[test]
    fn callers_that_cannot_be_told_apart_are_bound_only_by_the_limit_on_all_tasks() {
        let board = board(TaskLimits {
            per_caller: 2,
            total: 5,
            ..TaskLimits::default()
        });
        let anonymous: Vec<_> = (0..4)
            .map(|_| board.reserve(&Owner::anonymous()).unwrap())
            .collect();
        let _fifth = board.reserve(&named("alice")).unwrap();
        assert!(board.reserve(&Owner::anonymous()).is_none(), "no sixth");
        drop(anonymous);
        assert!(board.reserve(&Owner::anonymous()).is_some());
    }

    #[tokio::test]
    async fn an_answer_reaches_the_question_it_names_and_no_other() {
        let board = board(TaskLimits::default());
        let place = board.reserve(&named("alice")).unwrap();
        let task = board.create(place, CancellationToken::new());
        let id = task.id.clone();
        let asking = {
            let board = board.clone();
            let id = id.clone();
            tokio::spawn(async move {
                board
                    .ask(&id, "q1", json!({"method": "elicitation/create"}))
                    .await
            })
        };
        while !matches!(
            board.get("alice", &id).unwrap().status,
            Status::InputRequired(_)
        ) {
            tokio::task::yield_now().await;
        }
        let mut stray = Map::new();
        stray.insert("q9".into(), json!({"action": "accept"}));
        board.update("alice", &id, stray).unwrap();
        assert!(matches!(
            board.get("alice", &id).unwrap().status,
            Status::InputRequired(_)
        ));
        let mut answer = Map::new();
        answer.insert("q1".into(), json!({"action": "decline"}));
        board.update("alice", &id, answer.clone()).unwrap();
        assert_eq!(asking.await.unwrap(), Some(json!({"action": "decline"})));
        assert_eq!(board.get("alice", &id).unwrap().status, Status::Working);
        // Answered twice: the second is ignored.
        board.update("alice", &id, answer).unwrap();
        board.finish(&id, Some(Ending::Completed(Map::new())));
        assert_eq!(
            board.get("alice", &id).unwrap().status,
            Status::Completed(Map::new())
        );
    }

    #[test]
    fn cancelling_reaches_the_handler_and_a_finished_task_stays_finished() {
        let board = board(TaskLimits::default());
        let token = CancellationToken::new();
        let task = board.create(board.reserve(&named("a")).unwrap(), token.clone());
        board.cancel("a", &task.id).unwrap();
        assert!(token.is_cancelled());
        board.finish(&task.id, Some(Ending::Completed(Map::new())));
        assert_eq!(board.get("a", &task.id).unwrap().status, Status::Cancelled);
        let done = board.create(
            board.reserve(&named("a")).unwrap(),
            CancellationToken::new(),
        );
        board.finish(&done.id, Some(Ending::Completed(Map::new())));
        board.cancel("a", &done.id).unwrap();
        assert_eq!(
            board.get("a", &done.id).unwrap().status,
            Status::Completed(Map::new())
        );
    }

    #[test]
    fn results_past_the_budget_are_replaced_by_an_error_that_says_so() {
        let board = board(TaskLimits {
            result_bytes: 40,
            ..TaskLimits::default()
        });
        let mut small = Map::new();
        small.insert("content".into(), json!([]));
        let first = board.create(
            board.reserve(&named("a")).unwrap(),
            CancellationToken::new(),
        );
        board.finish(&first.id, Some(Ending::Completed(small.clone())));
        assert_eq!(
            board.get("a", &first.id).unwrap().status,
            Status::Completed(small)
        );
        let mut large = Map::new();
        large.insert(
            "content".into(),
            json!([{"type": "text", "text": "a longer text"}]),
        );
        let second = board.create(
            board.reserve(&named("a")).unwrap(),
            CancellationToken::new(),
        );
        board.finish(&second.id, Some(Ending::Completed(large)));
        let Status::Completed(refused) = board.get("a", &second.id).unwrap().status else {
            panic!("the task completes");
        };
        assert_eq!(refused["isError"], true);
        assert_eq!(
            text(&refused),
            "the task finished, but its result (52 bytes) was not kept: this server keeps at most 40 bytes of task results at once; call the tool again later, or ask for less"
        );
    }

    #[test]
    fn one_callers_results_leave_room_for_the_others() {
        let board = board(TaskLimits {
            result_bytes: 200,
            result_bytes_per_caller: 100,
            ..TaskLimits::default()
        });
        let mut result = Map::new();
        result.insert(
            "content".into(),
            json!([{"type": "text", "text": "a longer text"}]),
        );
        let finish = |owner: &Owner| {
            let task = board.create(board.reserve(owner).unwrap(), CancellationToken::new());
            board.finish(&task.id, Some(Ending::Completed(result.clone())));
            match board.get(&owner.name, &task.id).unwrap().status {
                Status::Completed(kept) => kept,
                other => panic!("{other:?}"),
            }
        };
        assert_eq!(finish(&named("alice")), result);
        let refused = finish(&named("alice"));
        assert!(
            text(&refused).contains("at most 100 bytes of task results for one caller"),
            "{refused:?}"
        );
        assert_eq!(finish(&named("bob")), result, "bob's room is his");
        // Callers that cannot be told apart share only the budget of all.
        assert_eq!(finish(&Owner::anonymous()), result);
        assert!(
            text(&finish(&Owner::anonymous()))
                .contains("at most 200 bytes of task results at once")
        );
    }

    #[test]
    fn a_task_past_its_time_to_live_is_gone() {
        let board = board(TaskLimits {
            ttl: Duration::ZERO,
            ..TaskLimits::default()
        });
        let token = CancellationToken::new();
        let task = board.create(board.reserve(&named("a")).unwrap(), token.clone());
        assert!(board.get("a", &task.id).is_err());
        assert!(token.is_cancelled());
    }
}
