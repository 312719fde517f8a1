"""Checks the OpenLineage events the loopback cluster test's receiver got from one build: the build's run, a START
and a COMPLETE for every transform the build report lists as SUCCEEDED, each parented to the build's run, and
events of the Spark jobs inside Spark transforms, parented to their transform's run and rooted at the build's,
with their datasets. Prints PASS lines; exits 1 on the first failure.

    python lineage_check.py EVENTS_FILE BUILD_LOG NAMESPACE
"""
import json
import re
import sys

events_path, build_log, namespace = sys.argv[1:4]
events = [json.loads(line) for line in open(events_path, encoding="utf-8") if line.strip()]
own = [e for e in events if e["producer"].startswith("https://github.com/transforms-java/")]
spark = [e for e in events if e not in own]
succeeded = re.findall(r"^  SUCCEEDED +(\S+) +(\S+)", open(build_log, encoding="utf-8").read(), re.M)


def fail(message):
    print("FAIL lineage: " + message)
    sys.exit(1)


if not succeeded:
    fail("the build log lists no SUCCEEDED transform")
builds = [e for e in own if e["job"]["namespace"] == namespace and e["eventType"] == "START"
          and "parent" not in e["run"].get("facets", {})]
if len(builds) != 1:
    fail("expected one START of the build's run, found %d" % len(builds))
build_run = builds[0]["run"]["runId"]
runs = {}
for name, engine in succeeded:
    mine = [e for e in own if e["job"]["name"] == name and e["job"]["namespace"] == namespace]
    types = sorted(e["eventType"] for e in mine)
    if types != ["COMPLETE", "START"]:
        fail("%s sent %s, not one START and one COMPLETE" % (name, types))
    for e in mine:
        if e["run"]["facets"]["parent"]["run"]["runId"] != build_run:
            fail("%s's %s is not under the build's run" % (name, e["eventType"]))
    complete = [e for e in mine if e["eventType"] == "COMPLETE"][0]
    if not complete["outputs"]:
        fail("%s's COMPLETE names no output" % name)
    runs[complete["run"]["runId"]] = (name, engine)
print("PASS lineage: the build's run and a START and a COMPLETE under it for each of %d transforms" % len(runs))
heard = set()
for e in spark:
    parent = e["run"].get("facets", {}).get("parent", {})
    if parent.get("run", {}).get("runId") not in runs:
        fail("a Spark job's event is not under a transform's run: %s" % e["job"]["name"])
    if parent.get("root", {}).get("run", {}).get("runId") != build_run:
        fail("a Spark job's event is not rooted at the build's run: %s" % e["job"]["name"])
    heard.add(runs[parent["run"]["runId"]][0])
spark_transforms = {name for name, engine in succeeded if engine == "spark"}
if not heard:
    fail("no Spark job sent an event")
with_datasets = [e for e in spark if e.get("inputs") or e.get("outputs")]
if not with_datasets:
    fail("no Spark job's event names a dataset")
print("PASS lineage: %d events of Spark jobs, from %d of %d Spark transforms, each under its transform's run; "
      "%d name datasets" % (len(spark), len(heard), len(spark_transforms), len(with_datasets)))
