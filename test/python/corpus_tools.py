"""Tool inputs in the shapes public Python MCP servers use, each echoing what pydantic parsed.

Every tool returns its arguments as pydantic handed them to it, as JSON: the output a call's
arguments produce, compared by the tests across the forms a profile advertises.
"""
from __future__ import annotations

import json
from datetime import datetime
from enum import Enum
from typing import Annotated, Any, Literal, Optional, Union

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import to_jsonable_python


def echo(arguments: dict[str, Any]) -> str:
    return json.dumps(to_jsonable_python(arguments), sort_keys=True)


# The reference fetch server: bounded integers with defaults.
def fetch(
    url: str,
    max_length: Annotated[int, Field(gt=0, lt=1000000, description="Maximum number of characters to return.")] = 5000,
    start_index: Annotated[int, Field(ge=0)] = 0,
    raw: bool = False,
) -> str:
    """Fetches a URL from the internet."""
    return echo(locals())


# The reference git server: Optional-heavy.
def git_log(
    repo_path: str,
    max_count: int = 10,
    start_timestamp: Optional[str] = None,
    end_timestamp: str | None = None,
    paths: list[str] | None = None,
) -> str:
    """Shows the commit logs."""
    return echo(locals())


# AWS Labs' CloudWatch server: nested models, a Literal with a default, a datetime.
class Dimension(BaseModel):
    name: str = Field(description="The dimension name.")
    value: str


def get_metric_data(
    namespace: str,
    metric_name: str,
    dimensions: list[Dimension] | None = None,
    statistic: Literal["Average", "Sum", "Maximum", "Minimum", "SampleCount"] = "Average",
    period: Annotated[int, Field(ge=1)] = 300,
    start_time: datetime | None = None,
) -> str:
    """Retrieves CloudWatch metric data."""
    return echo(locals())


# A tagged union whose tags have defaults (pydantic still requires the tag), and an enum default.
class Color(str, Enum):
    red = "red"
    green = "green"
    blue = "blue"


class Circle(BaseModel):
    kind: Literal["circle"] = "circle"
    radius: float


class Rect(BaseModel):
    kind: Literal["rect"] = "rect"
    w: float
    h: float


def draw(
    shape: Annotated[Union[Circle, Rect], Field(discriminator="kind")],
    color: Color = Color.red,
    label: Optional[str] = None,
    tags: list[str] | None = None,
) -> str:
    """Draws a shape."""
    return echo(locals())


# A tagged union whose tags have no default, nested in a list.
class Email(BaseModel):
    type: Literal["email"]
    address: str
    cc: list[str] = []


class Slack(BaseModel):
    type: Literal["slack"]
    channel: str
    thread: Optional[str] = None


def notify(
    targets: list[Annotated[Union[Email, Slack], Field(discriminator="type")]],
    message: Annotated[str, Field(min_length=1, max_length=2000)],
    urgent: bool = False,
) -> str:
    """Sends a message to every target."""
    return echo(locals())


# A union without a discriminator (pydantic's smart mode), and a recursive model.
class ById(BaseModel):
    id: int


class ByName(BaseModel):
    name: str
    owner: Optional[str] = None


class TreeNode(BaseModel):
    label: str
    children: list[TreeNode] = []


def lookup(target: Union[ById, ByName], tree: Optional[TreeNode] = None) -> str:
    """Looks up an item by id or by name."""
    return echo(locals())


# AWS Labs' DynamoDB server: extra="allow" items, extra="forbid" options, free-form values.
class Item(BaseModel):
    model_config = ConfigDict(extra="allow")
    pk: str


class ScanOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")
    limit: Annotated[int, Field(ge=1, le=1000)] = 100
    consistent: bool = False


def put_item(table: str, item: Item, options: Optional[ScanOptions] = None, values: dict[str, Any] | None = None, labels: dict[str, str] | None = None) -> str:
    """Writes an item to a table."""
    return echo(locals())


# Constrained strings and numbers: patterns in Rust regex syntax, a fractional multiple_of.
def search(
    query: Annotated[str, Field(min_length=1, max_length=200, pattern=r"^\w[\w ]*$")],
    code: Annotated[Optional[str], Field(pattern=r"^\d{3}$")] = None,
    word: Annotated[Optional[str], Field(pattern=r"^.+\s.+$")] = None,
    limit: Annotated[int, Field(ge=1, le=100)] = 10,
    ratio: Annotated[float, Field(multiple_of=0.01, ge=0, le=1)] = 0.5,
) -> str:
    """Searches the catalog."""
    return echo(locals())


TOOLS = [fetch, git_log, get_metric_data, draw, notify, lookup, put_item, search]
