"""The PyIceberg side of PyIcebergBenchmark (benchmarks/pyiceberg/run).

One long-lived process, so that every case runs in a warm interpreter: the Java harness starts it once
and sends one JSON command per line on standard input; the worker answers each with one JSON line on
standard output. It opens the harness's embedded SQLite catalog (the JDBC catalog's tables, which
PyIceberg's SqlCatalog reads and writes), so both sides edit the same tables.

Commands (every answer carries "ok": true, or "ok": false and "error"):

  {"cmd": "open", "warehouse": W, "catalog": NAME}   open the catalog; answers the versions
  {"cmd": "load", "name": K, "path": FILE}           read an Arrow IPC file written by the harness
                                                     into memory under K (not timed)
  {"cmd": "upsert", "table": T, "source": K}         table.upsert(K, join_cols=["id"])
  {"cmd": "delete", "table": T, "filter": F}         table.delete(delete_filter=F)
  {"cmd": "overwrite", "table": T, "source": K, "filter": F}
                                                     table.overwrite(K, overwrite_filter=F)
  {"cmd": "scan", "table": T}                        table.scan().to_arrow()
  {"cmd": "append", "table": T, "source": K}         table.append(K)
  {"cmd": "quit"}

Each edit loads the table from the catalog and collects garbage before its clock starts; only the
PyIceberg call is timed ("ms"). Answers also carry what the call returned, for the harness to check.
"""

import gc
import json
import sys
import time
import traceback

import pyarrow as pa
import pyiceberg
from pyiceberg.catalog.sql import SqlCatalog

state = {"catalog": None, "sources": {}}


def open_catalog(command):
    warehouse = command["warehouse"]
    state["catalog"] = SqlCatalog(command["catalog"], uri=f"sqlite:///{warehouse}/catalog.db",
                                  warehouse=f"file://{warehouse}")
    return {"pyiceberg": pyiceberg.__version__, "pyarrow": pa.__version__,
            "python": sys.version.split()[0]}


def load(command):
    with pa.memory_map(command["path"], "r") as source:
        table = pa.ipc.open_file(source).read_all()
    # Copy out of the memory map, so that the file may be deleted and reads are from memory.
    state["sources"][command["name"]] = table.combine_chunks()
    return {"rows": table.num_rows}


def timed(command, action):
    table = state["catalog"].load_table(command["table"])
    gc.collect()
    start = time.perf_counter()
    result = action(table)
    elapsed = (time.perf_counter() - start) * 1000.0
    answer = {"ms": elapsed}
    answer.update(result)
    return answer


def upsert(command):
    source = state["sources"][command["source"]]

    def action(table):
        result = table.upsert(source, join_cols=["id"])
        return {"updated": result.rows_updated, "inserted": result.rows_inserted}

    return timed(command, action)


def delete(command):
    def action(table):
        table.delete(delete_filter=command["filter"])
        return {}

    return timed(command, action)


def overwrite(command):
    source = state["sources"][command["source"]]

    def action(table):
        table.overwrite(source, overwrite_filter=command["filter"])
        return {}

    return timed(command, action)


def scan(command):
    def action(table):
        return {"rows": table.scan().to_arrow().num_rows}

    return timed(command, action)


def append(command):
    source = state["sources"][command["source"]]

    def action(table):
        table.append(source)
        return {}

    return timed(command, action)


COMMANDS = {"open": open_catalog, "load": load, "upsert": upsert, "delete": delete,
            "overwrite": overwrite, "scan": scan, "append": append}


def main():
    out = sys.stdout
    # PyIceberg's warnings and anything else printed go to standard error, never into the answers.
    sys.stdout = sys.stderr
    for line in sys.stdin:
        if not line.strip():
            continue
        command = json.loads(line)
        if command["cmd"] == "quit":
            break
        try:
            answer = {"ok": True}
            answer.update(COMMANDS[command["cmd"]](command))
        except Exception as failure:  # reported to the harness, which stops with it
            traceback.print_exc(file=sys.stderr)
            answer = {"ok": False, "error": f"{type(failure).__name__}: {failure}"}
        out.write(json.dumps(answer) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
