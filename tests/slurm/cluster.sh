#!/usr/bin/env bash
# cluster.sh — bring up / tear down a single-node Slurm cluster on localhost
# for tests: munged + slurmctld + slurmd as root, no systemd, no accounting,
# everything (config, state, logs, sockets) under one directory.
#
#   tests/slurm/cluster.sh up DIR      start; prints nothing on success
#   tests/slurm/cluster.sh down DIR    stop every daemon by PID (idempotent)
#   eval "$(tests/slurm/cluster.sh env DIR)"   SLURM_CONF for sbatch/squeue
set -euo pipefail
cmd=${1:?usage: cluster.sh up|down|env DIR}
dir=${2:?usage: cluster.sh up|down|env DIR}
dir=$(realpath -m "$dir")
# Ports away from the defaults (6817/6818) so a real cluster is never touched.
ctld_port=${ARB_SLURMCTLD_PORT:-16817}
slurmd_port=${ARB_SLURMD_PORT:-16818}

stop_pidfile() {
    local f=$1 pid
    [ -f "$f" ] || return 0
    pid=$(cat "$f" 2>/dev/null || true)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        kill "$pid" 2>/dev/null || true
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null || true
    fi
    rm -f "$f"
}

case "$cmd" in
env)
    echo "export SLURM_CONF=$dir/slurm.conf"
    ;;
down)
    stop_pidfile "$dir/slurmd.pid"
    stop_pidfile "$dir/slurmctld.pid"
    stop_pidfile "$dir/munge/munged.pid"
    ;;
up)
    for b in munged slurmctld slurmd sbatch squeue; do
        command -v "$b" >/dev/null 2>&1 || [ -x "/usr/sbin/$b" ] || {
            echo "cluster.sh: $b not found (apt-get install munge slurmctld slurmd slurm-client)" >&2; exit 1; }
    done
    host=$(hostname -s)
    cpus=$(nproc)
    mkdir -p "$dir/state" "$dir/spool" "$dir/munge"
    # munge needs a key; make a private one for this cluster.
    if [ ! -f "$dir/munge/munge.key" ]; then
        head -c 1024 /dev/urandom > "$dir/munge/munge.key"
        chmod 600 "$dir/munge/munge.key"
    fi
    chmod 700 "$dir/munge"
    /usr/sbin/munged --force --key-file="$dir/munge/munge.key" --socket="$dir/munge/munge.sock" \
        --pid-file="$dir/munge/munged.pid" --log-file="$dir/munge/munged.log" \
        --seed-file="$dir/munge/munged.seed"
    cat > "$dir/slurm.conf" <<CONF
ClusterName=arbitertest
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$dir/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerParameters=sched_min_interval=0,batch_sched_delay=0
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MaxArraySize=1001
NodeName=$host CPUs=$cpus RealMemory=1000 State=UNKNOWN
PartitionName=arbiter Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
    export SLURM_CONF="$dir/slurm.conf"
    /usr/sbin/slurmctld -c -f "$dir/slurm.conf"
    /usr/sbin/slurmd -f "$dir/slurm.conf"
    # Wait until the node is idle (at most 30 s).
    for _ in $(seq 300); do
        if sinfo -h -o '%T' 2>/dev/null | grep -qx idle; then exit 0; fi
        sleep 0.1
    done
    echo "cluster.sh: the node did not come up; logs in $dir" >&2
    tail -n 20 "$dir/slurmctld.log" "$dir/slurmd.log" >&2 || true
    exit 1
    ;;
*)
    echo "usage: cluster.sh up|down|env DIR" >&2; exit 2 ;;
esac
