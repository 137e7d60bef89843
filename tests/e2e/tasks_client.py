"""The Tasks extension (`io.modelcontextprotocol/tasks`) as a client of the
official Python SDK would write it: a `ClientExtension` whose claim on
`resultType: "task"` polls `tasks/get` until the task ends, answers the
task's questions through `tasks/update` with the client's own callbacks,
and gives back the task's inlined `CallToolResult`. The SDK advertises it
only on revisions where its claim can arrive (2026-07-28); on the
initialize era the same client calls the same tools as ordinary calls.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

import anyio
import mcp_types
from mcp.client.extension import ClaimContext, ClientExtension, ResultClaim
from pydantic import ConfigDict
from pydantic.alias_generators import to_camel

IDENTIFIER = "io.modelcontextprotocol/tasks"


class TaskParams(mcp_types.RequestParams):
    task_id: str


class UpdateParams(mcp_types.RequestParams):
    task_id: str
    input_responses: dict[str, Any]


class GetTask(mcp_types.Request[TaskParams, Literal["tasks/get"]]):
    method: Literal["tasks/get"] = "tasks/get"
    name_param = "taskId"


class UpdateTask(mcp_types.Request[UpdateParams, Literal["tasks/update"]]):
    method: Literal["tasks/update"] = "tasks/update"
    name_param = "taskId"


class CancelTask(mcp_types.Request[TaskParams, Literal["tasks/cancel"]]):
    method: Literal["tasks/cancel"] = "tasks/cancel"
    name_param = "taskId"


class Open(mcp_types.Result):
    """Any result, every field kept."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="allow")


class CreatedTask(Open):
    result_type: Literal["task"]
    task_id: str


Elicit = Callable[[Any, mcp_types.ElicitRequestParams], Awaitable[mcp_types.ElicitResult]]


def dump(model: Any) -> dict[str, Any]:
    return model.model_dump(mode="json", by_alias=True, exclude_none=True)


class Tasks(ClientExtension):
    """Polls a task to its end; records what it saw for the checks."""

    identifier = IDENTIFIER

    def __init__(self, elicit: Elicit) -> None:
        self.elicit = elicit
        self.created: list[str] = []
        self.statuses: list[str] = []
        self.asked: list[dict[str, Any]] = []

    def claims(self) -> list[ResultClaim[Any]]:
        return [ResultClaim(result_type="task", model=CreatedTask, resolve=self.resolve)]

    async def resolve(self, created: CreatedTask, ctx: ClaimContext) -> mcp_types.CallToolResult:
        self.created.append(created.task_id)
        params = TaskParams(task_id=created.task_id)
        while True:
            task = dump(await ctx.session.send_request(GetTask(params=params), Open))
            status = task.get("status", "")
            if not self.statuses or self.statuses[-1] != status:
                self.statuses.append(status)
            if status == "completed":
                return mcp_types.CallToolResult.model_validate(task["result"])
            if status == "failed":
                raise RuntimeError(f"task {created.task_id} failed: {task.get('error')}")
            if status == "cancelled":
                return mcp_types.CallToolResult(content=[mcp_types.TextContent(type="text", text="cancelled")], is_error=True)
            if status == "input_required":
                answers: dict[str, Any] = {}
                for key, request in (task.get("inputRequests") or {}).items():
                    self.asked.append(request)
                    if request.get("method") != "elicitation/create":
                        continue
                    question = mcp_types.ElicitRequestFormParams.model_validate(request["params"])
                    answers[key] = dump(await self.elicit(None, question))
                update = UpdateParams(task_id=created.task_id, input_responses=answers)
                await ctx.session.send_request(UpdateTask(params=update), Open)
            await anyio.sleep(min(task.get("pollIntervalMs", 100), 100) / 1000)
