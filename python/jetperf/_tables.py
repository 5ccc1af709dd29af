"""Result tables: the daemon's CSV export read into a pandas DataFrame whose columns keep the
CSV's order and values and take their types, units and parameter/metric roles from the kinds'
declared columns (GET /v1/kinds), so a table here is the CLI's `--format csv` of the same job."""
import csv
import io
import math
import re

from . import _optional

# Declared type -> pandas dtype. Lists and objects stay as the CSV spells them ("a;b",
# "k=v;k=v"): the table is the CSV's; Job.rows() has them as Python values.
_DTYPES = {"integer": "Int64", "number": "float64", "boolean": "boolean",
           "text": "string", "list": "string", "object": "string"}
# Columns the API adds to tables of several jobs and boards.
_EXTRA = {"job_id": {"type": "integer", "unit": "", "role": "parameter"},
          "tags": {"type": "text", "unit": "", "role": "parameter"},
          "board": {"type": "text", "unit": "", "role": "parameter"}}


def rail_regex(pattern):
    """'rail_<NAME>_w' -> a regex matching rail_VDD_IN_w and the like."""
    head, _, tail = pattern.partition("<NAME>")
    return re.compile("^" + re.escape(head) + ".+" + re.escape(tail) + "$")


class KindColumns:
    """Every declared column of the kinds, by name (the asked-for kind's declarations first)."""

    def __init__(self, kinds_doc, prefer=None):
        self.columns = dict(_EXTRA)
        self.rails = []
        kinds = sorted(kinds_doc.get("kinds", []), key=lambda k: k.get("kind") != prefer)
        for k in kinds:
            for c in k.get("columns", []):
                self.columns.setdefault(c["name"], c)
            if k.get("rail_columns"):
                self.rails.append(rail_regex(k["rail_columns"]))

    def of(self, name):
        if name in self.columns:
            return self.columns[name]
        if any(r.match(name) for r in self.rails):
            return {"type": "number", "unit": "W", "role": "metric"}
        return {"type": "text", "unit": "", "role": "metric"}


def _convert(values, kind):
    """CSV cells of one column -> a pandas array of the declared type's dtype (_DTYPES); an
    empty cell is missing (NA, NaN)."""
    pd = _optional.pandas()
    if kind == "integer":
        return pd.array([int(v) if v != "" else None for v in values], dtype="Int64")
    if kind == "number":
        return pd.array([float(v) if v != "" else math.nan for v in values], dtype="float64")
    if kind == "boolean":
        return pd.array([None if v == "" else v == "true" for v in values], dtype="boolean")
    return pd.array([v if v != "" else None for v in values], dtype=_DTYPES.get(kind, "string"))


def frame_from_csv(text, columns):
    """The CSV's table with declared types; attrs: units, parameters, metrics."""
    pd = _optional.pandas()
    rows = list(csv.reader(io.StringIO(text)))
    if not rows:
        return pd.DataFrame()
    header, body = rows[0], rows[1:]
    data = {}
    for i, name in enumerate(header):
        values = [r[i] if i < len(r) else "" for r in body]
        data[name] = _convert(values, columns.of(name).get("type"))
    df = pd.DataFrame(data, columns=header)
    decl = {name: columns.of(name) for name in header}
    df.attrs["units"] = {n: c.get("unit", "") for n, c in decl.items() if c.get("unit")}
    df.attrs["parameters"] = [n for n, c in decl.items() if c.get("role") == "parameter"]
    df.attrs["metrics"] = [n for n, c in decl.items() if c.get("role") != "parameter"]
    return df
