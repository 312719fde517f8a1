"""The Python side of the interop test (interop-tests, run by .ci/interop-test).

PyIceberg opens the same embedded SQLite catalog as the SDK and answers one command at a time:

  compare WAREHOUSE TABLE ROWS.json...   read each TABLE with PyIceberg; exit 1 unless its rows equal ROWS.json
  create WAREHOUSE TABLE SPEC.json       create TABLE with PyIceberg and append SPEC's rows
  append WAREHOUSE TABLE ROWS.arrow      append the rows of an Arrow IPC file to TABLE (pyarrow writes them)
  apply WAREHOUSE TABLE OPS.json [SPEC]  apply edits (append, upsert, delete, overwrite), creating TABLE
                                         from SPEC first when given; prints "upsert U I" per upsert
  scan WAREHOUSE TABLE FILTERS.json      one line per filter: "ids 1,2,3" (sorted) or "error ..."
  upserts WAREHOUSE CASES.json           run upsert cases on fresh tables; one line per case:
                                         "ok U I row;row;..." or "error ..."
  export WAREHOUSE TABLE OUT.arrow       read TABLE with PyIceberg and write its rows, sorted by id, to an
                                         Arrow IPC file; prints "rows N"
  serve WAREHOUSE                        answer commands read from stdin, one JSON list [COMMAND, ARGS...]
                                         a line (without WAREHOUSE), each answer ending in a line "@@done
                                         STATUS"; one process for many commands, without starting Python
                                         and loading PyIceberg each time

WAREHOUSE is a local folder: it holds the catalog's SQLite file and the files the commands exchange. The
tables' files are there too, unless the environment variable INTEROP_CATALOG_PROPERTIES holds a JSON object of
catalog properties, which take precedence: {"warehouse": "s3://bucket/path", "s3.endpoint": ...} puts them on
an object store (ObjectStoreStrategiesInteropTest).

Rows travel as JSON objects of canonical values, the same on both sides: every scalar is a string
(integers in decimal, floats and decimals in plain exact decimal, dates ISO, times and timestamps in
microseconds, binary and UUIDs in lower-case hex), structs are objects, lists are lists, and maps are
lists of [key, value] pairs sorted by key.
"""

import datetime
import decimal
import json
import math
import os
import sys
import traceback
import uuid

import pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.expressions import parser
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import (BucketTransform, DayTransform, HourTransform, IdentityTransform,
                                  MonthTransform, TruncateTransform, YearTransform)
from pyiceberg.types import (BinaryType, BooleanType, DateType, DecimalType, DoubleType, FixedType,
                             FloatType, IntegerType, ListType, LongType, MapType, NestedField,
                             StringType, StructType, TimestampType, TimestamptzType, TimeType,
                             UUIDType)

CATALOG_NAME = "interop"
NAMESPACE = "interop"
EPOCH = datetime.datetime(1970, 1, 1)
EPOCH_UTC = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
MICRO = datetime.timedelta(microseconds=1)


def catalog(warehouse):
    properties = {"warehouse": f"file://{warehouse}",
                  **json.loads(os.environ.get("INTEROP_CATALOG_PROPERTIES", "{}"))}
    return SqlCatalog(CATALOG_NAME, uri=f"sqlite:///{warehouse}/catalog.db", **properties)


def canonical(value):
    """The canonical form of one value as pyarrow's to_pylist gives it."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
        text = format(decimal.Decimal(value), "f")
        return "0" if text == "-0" else text
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, str):
        return value
    if isinstance(value, datetime.datetime):
        if value.tzinfo is None:
            return str((value - EPOCH) // MICRO)
        return str((value - EPOCH_UTC) // MICRO)
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, datetime.time):
        return str(((value.hour * 60 + value.minute) * 60 + value.second) * 1_000_000 + value.microsecond)
    if isinstance(value, uuid.UUID):
        return value.hex
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, dict):
        return {k: canonical(v) for k, v in value.items()}
    if isinstance(value, list):
        if value and all(isinstance(e, tuple) and len(e) == 2 for e in value):
            return sorted(([canonical(k), canonical(v)] for k, v in value), key=lambda kv: json.dumps(kv[0]))
        return [canonical(e) for e in value]
    raise ValueError(f"no canonical form for {type(value).__name__}: {value!r}")


def canonical_rows(arrow_table):
    return [{k: canonical(v) for k, v in row.items()} for row in arrow_table.to_pylist()]


def row_key(row):
    return json.dumps(row, sort_keys=True)


def read_rows(warehouse, table):
    return canonical_rows(catalog(warehouse).load_table(f"{NAMESPACE}.{table}").scan().to_arrow())


def compare(warehouse, *pairs):
    """Compares each TABLE with its ROWS.json; exit 1 when any differs."""
    status = 0
    for table, rows_file in zip(pairs[0::2], pairs[1::2]):
        status |= compare_one(warehouse, table, rows_file)
    return status


def compare_one(warehouse, table, rows_file):
    with open(rows_file) as f:
        expected = sorted(json.load(f), key=row_key)
    actual = sorted(read_rows(warehouse, table), key=row_key)
    if actual == expected:
        print(f"same {len(actual)} rows")
        return 0
    missing = [r for r in expected if r not in actual]
    extra = [r for r in actual if r not in expected]
    print(f"PyIceberg reads {len(actual)} rows of {table}, the SDK {len(expected)}")
    for r in missing[:5]:
        print("  only the SDK reads:", row_key(r))
    for r in extra[:5]:
        print("  only PyIceberg reads:", row_key(r))
    return 1


# ---- the simple table of the edit sequences and upsert cases: id, name, qty, amt, day ----

TYPES = {
    "long": (LongType(), pa.int64(), int),
    "int": (IntegerType(), pa.int32(), int),
    "string": (StringType(), pa.large_string(), str),
    "double": (DoubleType(), pa.float64(), float),
    "date": (DateType(), pa.date32(), datetime.date.fromisoformat),
    "decimal(12,2)": (DecimalType(12, 2), pa.decimal128(12, 2), decimal.Decimal),
}


def simple_schema(columns, identifier):
    fields = []
    for i, (name, type_name, required) in enumerate(columns, start=1):
        fields.append(NestedField(i, name, TYPES[type_name][0], required=required))
    ids = [i for i, (name, _, _) in enumerate(columns, start=1) if name in identifier]
    return Schema(*fields, identifier_field_ids=ids)


def arrow_rows(columns, rows):
    """Rows of canonical values as an Arrow table of the simple schema."""
    arrays, fields = [], []
    for name, type_name, required in columns:
        _, arrow_type, parse = TYPES[type_name]
        values = [None if r.get(name) is None else parse(r[name]) for r in rows]
        arrays.append(pa.array(values, type=arrow_type))
        fields.append(pa.field(name, arrow_type, nullable=not required))
    return pa.Table.from_arrays(arrays, schema=pa.schema(fields))


TRANSFORMS = {
    "identity": lambda arg: IdentityTransform(),
    "bucket": lambda arg: BucketTransform(arg),
    "truncate": lambda arg: TruncateTransform(arg),
    "year": lambda arg: YearTransform(),
    "month": lambda arg: MonthTransform(),
    "day": lambda arg: DayTransform(),
    "hour": lambda arg: HourTransform(),
}


def create(warehouse, table, spec_file):
    with open(spec_file) as f:
        spec = json.load(f)
    cat = catalog(warehouse)
    cat.create_namespace_if_not_exists(NAMESPACE)
    schema = simple_schema(spec["columns"], spec.get("identifier", []))
    fields = []
    for i, (source, transform, arg) in enumerate(spec.get("partition", [])):
        source_id = schema.find_field(source).field_id
        fields.append(PartitionField(source_id, 1000 + i, TRANSFORMS[transform](arg), f"{source}_{transform}"))
    properties = {"format-version": "2", **spec.get("properties", {})}
    t = cat.create_table(f"{NAMESPACE}.{table}", schema=schema, partition_spec=PartitionSpec(*fields),
                         properties=properties)
    for batch in spec.get("appends", []):
        t.append(arrow_rows(spec["columns"], batch))
    return 0


def append(warehouse, table, arrow_file):
    with pa.memory_map(arrow_file) as source:
        rows = pa.ipc.open_file(source).read_all()
    catalog(warehouse).load_table(f"{NAMESPACE}.{table}").append(rows)
    return 0


def apply(warehouse, table, ops_file, spec_file=None):
    if spec_file is not None:
        create(warehouse, table, spec_file)
    with open(ops_file) as f:
        ops = json.load(f)
    t = catalog(warehouse).load_table(f"{NAMESPACE}.{table}")
    columns = [(f.name, type_name(f.field_type), f.required) for f in t.schema().fields]
    for op in ops:
        kind = op["op"]
        if kind == "append":
            t.append(arrow_rows(columns, op["rows"]))
        elif kind == "upsert":
            result = t.upsert(arrow_rows(columns, op["rows"]), join_cols=op.get("join"),
                              when_matched_update_all=op.get("update", True),
                              when_not_matched_insert_all=op.get("insert", True))
            print(f"upsert {result.rows_updated} {result.rows_inserted}")
        elif kind == "delete":
            t.delete(delete_filter=op["filter"])
        elif kind == "overwrite":
            t.overwrite(arrow_rows(columns, op["rows"]), overwrite_filter=op["filter"])
        else:
            raise ValueError(f"unknown edit {kind}")
        t = t.refresh()
    return 0


def type_name(field_type):
    for name, (iceberg_type, _, _) in TYPES.items():
        if iceberg_type == field_type:
            return name
    raise ValueError(f"not a type of the simple schema: {field_type}")


def scan(warehouse, table, filters_file):
    with open(filters_file) as f:
        filters = json.load(f)
    t = catalog(warehouse).load_table(f"{NAMESPACE}.{table}")
    for text in filters:
        try:
            parser.parse(text)
            ids = sorted(t.scan(row_filter=text, selected_fields=("id",)).to_arrow()["id"].to_pylist())
            print("ids " + ",".join(str(i) for i in ids))
        except Exception as e:  # every refusal counts the same: the filter is not accepted
            print("error " + str(e).replace("\n", " ")[:200])
    return 0


def upserts(warehouse, cases_file):
    with open(cases_file) as f:
        cases = json.load(f)
    cat = catalog(warehouse)
    cat.create_namespace_if_not_exists(NAMESPACE)
    for number, case in enumerate(cases):
        name = f"{NAMESPACE}.upsert_case_{number}"
        columns = case["columns"]
        t = cat.create_table(name, schema=simple_schema(columns, case.get("identifier", [])),
                             properties={"format-version": "2"})
        try:
            for batch in case["table"]:
                t.append(arrow_rows(columns, batch))
            result = t.upsert(arrow_rows(columns, case["source"]), join_cols=case.get("join"),
                              when_matched_update_all=case.get("update", True),
                              when_not_matched_insert_all=case.get("insert", True),
                              case_sensitive=case.get("case_sensitive", True))
            rows = sorted("|".join("null" if r[c[0]] is None else r[c[0]] for c in columns)
                          for r in canonical_rows(t.refresh().scan().to_arrow()))
            print(f"ok {result.rows_updated} {result.rows_inserted} " + ";".join(rows))
        except Exception as e:
            print("error " + str(e).replace("\n", " ")[:200])
    return 0


def export(warehouse, table, out_file):
    """Every row of TABLE as PyIceberg reads it, sorted by id, in an uncompressed Arrow IPC file."""
    rows = catalog(warehouse).load_table(f"{NAMESPACE}.{table}").scan().to_arrow().sort_by("id")
    with pa.OSFile(out_file, "wb") as sink, pa.ipc.new_file(sink, rows.schema) as writer:
        writer.write_table(rows)
    print(f"rows {rows.num_rows}")
    return 0


def serve(warehouse):
    """Runs the commands read from stdin on WAREHOUSE; a command that raises prints its traceback."""
    for line in sys.stdin:
        if not line.strip():
            continue
        command, *args = json.loads(line)
        try:
            status = COMMANDS[command](warehouse, *args) if command in COMMANDS else 2
        except Exception:
            traceback.print_exc(file=sys.stdout)
            status = 1
        print(f"@@done {status}", flush=True)
    return 0


COMMANDS = {"compare": compare, "create": create, "append": append, "apply": apply, "scan": scan,
            "upserts": upserts, "export": export}


def main(argv):
    command, args = argv[1], argv[2:]
    if command == "serve":
        return serve(*args)
    if command not in COMMANDS:
        print(f"unknown command {command}; expected one of serve, {', '.join(COMMANDS)}", file=sys.stderr)
        return 2
    return COMMANDS[command](*args)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
