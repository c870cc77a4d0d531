package org.spongefiles.bench.node;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.emulator.DiskClass;
import org.spongefiles.emulator.EmulatedDisk;
import org.spongefiles.emulator.EmulatorSupport;
import org.spongefiles.emulator.HostCommand;
import org.spongefiles.emulator.MemoryContainer;
import org.spongefiles.emulator.RackNetwork;
import org.spongefiles.emulator.RackServices;
import org.spongefiles.emulator.Teardown;
import org.spongefiles.testkit.ChildProcesses;
import org.spongefiles.workloads.pig.PigAttempt;
import org.spongefiles.workloads.pig.PigQuery;
import org.spongefiles.workloads.pig.PigReference;
import org.spongefiles.workloads.pig.QueryRun;

/**
 * The node benchmarks' pieces on the emulator: the node sweep's Pig child runs in its container
 * with its spill directory on the node's disk, and a rack's servers run in their nodes, register
 * with the tracker as one rack, and take a task's remote spill. Needs root with cgroup v1, loop
 * devices, netns and tc, which this machine kind has.
 */
class NodeBenchOnEmulatorTest {
  @TempDir Path dir;

  @BeforeAll
  static void hostSupportsTheEmulator() {
    assertThat(EmulatorSupport.probe().missing()).as("emulator pieces missing here").isEmpty();
  }

  @Test
  void sweepPutsAPigChildInItsContainerWithItsSpillDirOnTheNodeDisk() throws Exception {
    try (EmulatedDisk disk = EmulatedDisk.create(DiskClass.NVME, "pig", 128L << 20, dir);
        MemoryContainer container = MemoryContainer.create("pig-test", 1L << 30);
        NodePlacement placement = NodePlacement.allOnDisk(disk.mount.resolve("pig"), container)) {
      PigAttempt attempt =
          new PigNodeCells(1, dir, dir, 2_000, "96m").attempt(PigQuery.QUANTILES, true, placement);
      assertThat(attempt.finished()).as(attempt.failure()).isTrue();
      QueryRun run = attempt.runs().get(0);
      assertThat(run.memoryCgroup()).isEqualTo("/" + container.group.getFileName());
      assertThat(run.tmpStore()).as("java.io.tmpdir's device").isEqualTo(disk.device());
      assertThat(run.output()).startsWith(disk.mount);
      assertThat(PigReference.sortedLines(run.output()))
          .isEqualTo(
              PigReference.answer(
                  PigQuery.QUANTILES,
                  dir.resolve(Teardown.prefix() + "pig-input").resolve("pages")));
      assertThat(container.maxUsage()).isPositive();
    }
  }

  @Test
  void rackServersRunInTheirNodesAndRegisterWithTheTrackerAsOneRack() throws Exception {
    List<String> namespaces;
    List<Long> pids;
    List<Path> pools = new ArrayList<>();
    Path runDir;
    try (RackNetwork rack = RackNetwork.create(5, 2, 1_000_000_000L);
        RackServices services = RackServices.start(rack, 32L << 20, dir)) {
      namespaces = rack.namespaces();
      pids = services.pids();
      runDir = services.dir;
      assertThat(pids).hasSize(3).allMatch(pid -> ProcessHandle.of(pid).isPresent());
      String mounts = Files.readString(Path.of("/proc/mounts"));
      for (int n = 1; n <= 2; n++) {
        pools.add(services.pool(n));
        assertThat(services.announcedEndpoint(n)).isEqualTo("10.233.5." + n + ":7071");
        assertThat(mounts).contains("tmpfs " + services.pool(n) + " tmpfs");
        assertThat(HostCommand.run("ip", "netns", "pids", rack.namespace(n)).trim())
            .as("node %d runs its own server", n)
            .isEqualTo(pids.get(n) + "");
        // The other node reaches this node's server by its veth address, through the bridge.
        String connect = "exec 3<>/dev/tcp/10.233.5." + n + "/7071";
        assertThat(HostCommand.attempt(rack.inNode(3 - n, List.of("bash", "-c", connect))).ok())
            .as("node %d's server reached from node %d", n, 3 - n)
            .isTrue();
      }
      assertThat(services.serversUp()).isEqualTo(2);
      // A task on node 1 told only the tracker and its rack finds the rack's servers and spills
      // all 4 MiB (4 chunks) to them, read back and verified.
      List<String> command = new ArrayList<>(List.of("4", "0", "1", "-"));
      command.addAll(services.taskConf(1));
      List<String> lines =
          runChild(
              rack.inNode(
                  1, ChildProcesses.java(List.of("-Xmx128m"), RemoteTransferProbe.class, command)));
      assertThat(lines)
          .filteredOn(line -> line.startsWith("RESULT "))
          .singleElement()
          .asString()
          .startsWith("RESULT runs=1 remote_chunks=4 remote_bytes=4194304 all_bytes=4194304 ");
    }
    String left = HostCommand.run("ip", "netns", "list");
    for (String namespace : namespaces) {
      assertThat(left).doesNotContain(namespace);
    }
    for (long pid : pids) {
      assertThat(ProcessHandle.of(pid).filter(ProcessHandle::isAlive)).as("pid %d", pid).isEmpty();
    }
    assertThat(Files.readString(Path.of("/proc/mounts"))).doesNotContain(runDir.toString());
    assertThat(pools).allMatch(pool -> !Files.exists(pool));
    assertThat(runDir).doesNotExist();
  }

  private static List<String> runChild(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = ChildProcesses.outputLines(process);
    assertThat(process.waitFor()).as("child exit, output %s", lines).isZero();
    return lines;
  }
}
