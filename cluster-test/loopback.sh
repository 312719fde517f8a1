# Shell functions for a Spark standalone cluster on 127.0.0.1, sourced by .ci/cluster-test and
# benchmarks/cluster-scale. Every process started here is recorded in the array `pids`, and
# stop_processes stops them by PID (TERM, then KILL after 10 s); call it from an EXIT trap.
#
# Needs: $repo (the checkout), $work (a folder for logs), $venv (the virtual environment); spark_line
# chooses the Spark line (3.5 unless it says 4.1), each pinned to the Spark version the SDK builds that
# line with (the pyspark package ships that version's distribution).

case "${spark_line:=3.5}" in
  3.5) PYSPARK_VERSION=3.5.9 ;;
  4.1) PYSPARK_VERSION=4.1.3 ;;
  *) echo "spark_line must be 3.5 or 4.1, not $spark_line" >&2; return 2 ;;
esac
MOTO_VERSION=5.2.5
pids=()
export SPARK_LOCAL_IP=127.0.0.1

# Prints "== <label> [N s] message" with the seconds since $started.
step() { printf '\n== %s [%ss] %s\n' "${step_label:-cluster}" "$((SECONDS - started))" "$*"; }

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

wait_for_port() { # PORT WHAT PID
  for _ in $(seq 240); do
    if python3 -c "import socket; socket.create_connection(('127.0.0.1', $1), 0.5)" 2>/dev/null; then
      return 0
    fi
    kill -0 "$3" 2>/dev/null || { echo "$2 exited before it listened on $1"; return 1; }
    sleep 0.5
  done
  echo "$2 did not listen on port $1 within 120 s"
  return 1
}

# Installs pyspark and moto, pinned, into $venv (again only when the pins change), and exports
# SPARK_HOME: the pyspark package ships Spark's jars, bin/spark-submit and bin/spark-class.
install_spark() {
  local wanted="pyspark==${PYSPARK_VERSION} moto[server]==${MOTO_VERSION}"
  if [ "$(cat "$venv/.pins" 2>/dev/null)" != "$wanted" ]; then
    rm -rf "$venv"
    python3 -m venv "$venv"
    # No byte-compiling: the tests run Spark's scripts and jars, and a few modules of moto.
    # shellcheck disable=SC2086
    "$venv/bin/pip" install --quiet --disable-pip-version-check --no-compile $wanted
    echo "$wanted" > "$venv/.pins"
  fi
  SPARK_HOME="$("$venv/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')"
  export SPARK_HOME
  "$SPARK_HOME/bin/spark-submit" --version 2>&1 | grep -q "version ${PYSPARK_VERSION}" \
    || { echo "$SPARK_HOME is not Spark ${PYSPARK_VERSION}"; return 1; }
}

# Starts a master and N workers of one core and WORKER_MEMORY (default 2g) each; sets $master.
# Workers and their executors get no AWS or catalog credentials from this environment.
start_cluster() { # N
  local master_port worker
  master_port=$(free_port)
  master="spark://127.0.0.1:$master_port"
  "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master \
    --host 127.0.0.1 --port "$master_port" --webui-port "$(free_port)" > "$work/master.log" 2>&1 &
  pids+=($!)
  wait_for_port "$master_port" "the Spark master" "${pids[-1]}"
  for worker in $(seq "$1"); do
    mkdir -p "$work/worker-$worker"
    env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u LAKE_CLIENT_SECRET \
      "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker \
      --host 127.0.0.1 --cores 1 --memory "${WORKER_MEMORY:-2g}" --webui-port "$(free_port)" \
      --work-dir "$work/worker-$worker" "$master" > "$work/worker-$worker.log" 2>&1 &
    pids+=($!)
  done
  for _ in $(seq 240); do
    [ "$(grep -c 'Registering worker' "$work/master.log" || true)" -ge "$1" ] && return 0
    sleep 0.5
  done
  echo "$1 workers did not register with $master"
  return 1
}

stop_processes() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
  done
  for pid in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    if kill -0 "$pid" 2>/dev/null; then
      echo "process $pid did not stop on TERM; killing it"
      kill -9 "$pid" 2>/dev/null || true
    fi
  done
}
