#!/bin/sh
# A one-node Slurm cluster on 127.0.0.1 for trying the recipes (Debian/Ubuntu, as root):
# munge for authentication, slurmctld and slurmd on this host with all its cores.
set -eu
apt-get install -y slurm-wlm munge
host=$(hostname -s)
cpus=$(nproc)
mem=$(awk '/MemTotal/ {print int($2 / 1024) - 256}' /proc/meminfo)
[ -f /etc/munge/munge.key ] || mungekey --create 2>/dev/null || create-munge-key
mkdir -p /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/munge
chown munge:munge /etc/munge/munge.key /run/munge
chown slurm:slurm /var/spool/slurmctld /var/log/slurm 2>/dev/null || true
cat >/etc/slurm/slurm.conf <<CONF
ClusterName=podium
SlurmctldHost=$host(127.0.0.1)
AuthType=auth/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmUser=root
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=main Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# Containers have no systemd: start the daemons directly.
su -s /bin/sh munge -c munged 2>/dev/null || munged --force
slurmctld
slurmd
sleep 2
scontrol update nodename="$host" state=resume 2>/dev/null || true
sinfo
