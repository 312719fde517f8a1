"""The PyIceberg side of PyIcebergBenchmark (benchmarks/pyiceberg/run).

One long-lived process, so that every case runs in a warm interpreter: the Java harness starts it once
and sends one JSON command per line on standard input; the worker answers each with one JSON line on
standard output. It opens the harness's embedded SQLite catalog (the JDBC catalog's tables, which
PyIceberg's SqlCatalog reads and writes), so both sides edit the same tables.

Commands (every answer carries "ok": true, or "ok": false and "error"):

  {"cmd": "open", "warehouse": W, "catalog": NAME}   open the catalog; answers the versions
  {"cmd": "open", "catalog": NAME, "uri": U, "warehouse_uri": W, "properties": {...}}
                                                     open a catalog elsewhere (s3://), with FileIO
                                                     properties (s3.endpoint...)
  {"cmd": "create", "table": T, "schema": S, "properties": {...}}
                                                     create a table (S: Iceberg's JSON of a schema)
  {"cmd": "drop", "name": K}                         forget a loaded source
  {"cmd": "load", "name": K, "path": FILE}           read an Arrow IPC file written by the harness
                                                     into memory under K (not timed)
  {"cmd": "upsert", "table": T, "source": K}         table.upsert(K, join_cols=["id"])
  {"cmd": "delete", "table": T, "filter": F}         table.delete(delete_filter=F)
  {"cmd": "overwrite", "table": T, "source": K, "filter": F}
                                                     table.overwrite(K, overwrite_filter=F)
  {"cmd": "scan", "table": T}                        table.scan().to_arrow()
  {"cmd": "scan_batches", "table": T}                table.scan().to_arrow_batch_reader(), rows counted
  {"cmd": "append", "table": T, "source": K}         table.append(K)
  {"cmd": "quit"}

Each edit loads the table from the catalog and collects garbage before its clock starts; only the
PyIceberg call is timed ("ms"). Answers also carry what the call returned, for the harness to check,
and the process's peak resident memory during the call ("rss_peak_mb", Linux: the peak is reset through
/proc/self/clear_refs before the call; null where that cannot be done) and its resident memory when the
call started ("rss_start_mb").
"""

import gc
import json
import sys
import time
import traceback

import pyarrow as pa
import pyiceberg
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.schema import Schema

state = {"catalog": None, "sources": {}}


def open_catalog(command):
    if "warehouse" in command:
        warehouse = command["warehouse"]
        state["catalog"] = SqlCatalog(command["catalog"], uri=f"sqlite:///{warehouse}/catalog.db",
                                      warehouse=f"file://{warehouse}")
    else:
        state["catalog"] = SqlCatalog(command["catalog"], uri=command["uri"], warehouse=command["warehouse_uri"],
                                      **command.get("properties", {}))
    return {"pyiceberg": pyiceberg.__version__, "pyarrow": pa.__version__,
            "python": sys.version.split()[0]}


def load(command):
    with pa.memory_map(command["path"], "r") as source:
        table = pa.ipc.open_file(source).read_all()
    # Copy out of the memory map, so that the file may be deleted and reads are from memory.
    state["sources"][command["name"]] = table.combine_chunks()
    return {"rows": table.num_rows}


def create(command):
    schema = Schema.model_validate_json(json.dumps(command["schema"]))
    table = state["catalog"].create_table(command["table"], schema=schema,
                                          properties=command.get("properties", {}))
    return {"location": table.location()}


def drop(command):
    del state["sources"][command["name"]]
    gc.collect()
    return {}


def reset_peak_rss():
    """Resets the kernel's peak resident size of this process (VmHWM); False where it cannot."""
    try:
        with open("/proc/self/clear_refs", "w") as refs:
            refs.write("5")
        return True
    except OSError:
        return False


def status_mb(field):
    """A size from /proc/self/status (VmHWM: the peak resident size; VmRSS: the current one), in MB."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024.0
    return None


def timed(command, action):
    table = state["catalog"].load_table(command["table"])
    gc.collect()
    rss_start = status_mb("VmRSS")
    measured = reset_peak_rss()
    start = time.perf_counter()
    result = action(table)
    elapsed = (time.perf_counter() - start) * 1000.0
    answer = {"ms": elapsed, "rss_peak_mb": status_mb("VmHWM") if measured else None, "rss_start_mb": rss_start}
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


def scan_batches(command):
    def action(table):
        rows = 0
        for batch in table.scan().to_arrow_batch_reader():
            rows += batch.num_rows
        return {"rows": rows}

    return timed(command, action)


def append(command):
    source = state["sources"][command["source"]]

    def action(table):
        table.append(source)
        return {}

    return timed(command, action)


COMMANDS = {"open": open_catalog, "load": load, "upsert": upsert, "delete": delete,
            "overwrite": overwrite, "scan": scan, "scan_batches": scan_batches, "append": append,
            "create": create, "drop": drop}


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
