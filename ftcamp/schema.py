"""The API schema's common answers (issue 11, item 12): every operation documents the errors
it can give — 400 for input it refuses, 401 without a valid token, 403 where the rules refuse
the caller, 404 for what does not exist or is not the caller's (the same answer), 409 for a
write after its round is over, 413 for a body over the limit — with the JSON they carry."""

from __future__ import annotations

from typing import Any

ERROR = {
    "type": "object",
    "description": "What was refused: `detail`, or the refused fields with their problems.",
    "properties": {"detail": {"type": "string"}},
    "additionalProperties": {
        "oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]
    },
}
CONFLICT = {
    "type": "object",
    "description": "The round takes no more writes; `open_round` is the round that does.",
    "properties": {
        "detail": {"type": "string"},
        "open_round": {"type": "integer", "nullable": True},
    },
    "required": ["detail"],
}
DESCRIPTIONS = {
    "400": "Refused input: the fields and their problems.",
    "401": "No valid token (see WWW-Authenticate).",
    "403": "Not allowed by the rules (e.g. not on the committee).",
    "404": "No such object, or not yours.",
    "409": "The round is over or being resolved; `open_round` names the open one.",
    "413": "The request body is over the limit.",
}
WRITES = ("post", "put", "patch", "delete")


def _answer(code: str, schema: dict[str, Any]) -> dict[str, Any]:
    return {"content": {"application/json": {"schema": schema}}, "description": DESCRIPTIONS[code]}


def add_error_responses(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: the common error answers on every operation."""
    components = result.setdefault("components", {}).setdefault("schemas", {})
    components.setdefault("Error", ERROR)
    components.setdefault("Conflict", CONFLICT)
    error = {"$ref": "#/components/schemas/Error"}
    conflict = {"$ref": "#/components/schemas/Conflict"}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            responses = operation.setdefault("responses", {})
            codes = ["400", "401", "404"]
            if path.startswith("/api/campaigns/"):
                codes.append("403")
            if method in WRITES:
                codes.append("413")
                if path.startswith("/api/campaigns/"):
                    codes.append("409")
            for code in codes:
                schema = conflict if code == "409" else error
                documented = responses.get(code)
                if documented is None or _untyped(documented):
                    responses[code] = _answer(code, schema)
    return result


def _untyped(response: dict[str, Any]) -> bool:
    """A response documented as a bare object (OpenApiTypes.OBJECT) gets the error schema."""
    content = response.get("content", {}).get("application/json", {})
    schema = content.get("schema", {})
    return schema in ({}, {"type": "object"}, {"type": "object", "additionalProperties": {}})
