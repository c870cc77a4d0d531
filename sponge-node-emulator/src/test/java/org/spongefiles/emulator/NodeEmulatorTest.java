package org.spongefiles.emulator;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.spongefiles.testkit.ChildProcesses;

/**
 * The node emulator's setup and teardown, asserted on the host's state: a throttled loop-device
 * disk, a memory container a child JVM really runs in, a shaped rack whose nodes reach each other,
 * and nothing of them left after close, after SIGTERM, and (through {@link StaleResources}) after
 * SIGKILL. Needs root with cgroup v1, loop devices, netns and tc, which this machine kind has.
 */
class NodeEmulatorTest {
  @TempDir Path dir;

  @BeforeAll
  static void hostSupportsTheEmulator() {
    assertThat(EmulatorSupport.probe().missing()).as("emulator pieces missing here").isEmpty();
  }

  @Test
  void diskIsALoopDeviceThrottledAtItsClassLimitsAndRemovedOnClose() throws IOException {
    String device;
    String majorMinor;
    Path mount;
    try (EmulatedDisk disk = EmulatedDisk.create(DiskClass.HDD, "test", 64L << 20, dir)) {
      device = disk.device();
      majorMinor = disk.majorMinor();
      mount = disk.mount;
      assertThat(HostCommand.run("losetup", "--list", "--noheadings", "--output", "NAME,DIO"))
          .containsPattern(device + "\\s+1");
      assertThat(disk.limit("blkio.throttle.write_bps_device")).isEqualTo(120_000_000L);
      assertThat(disk.limit("blkio.throttle.read_bps_device")).isEqualTo(120_000_000L);
      assertThat(disk.limit("blkio.throttle.write_iops_device")).isEqualTo(150L);
      assertThat(disk.limit("blkio.throttle.read_iops_device")).isEqualTo(150L);
      assertThat(Files.readString(Path.of("/proc/mounts")))
          .contains(device + " " + mount + " ext4");
      byte[] data = new byte[3 << 20];
      Arrays.fill(data, (byte) 7);
      Files.write(mount.resolve("data"), data);
      disk.dropCache();
      assertThat(Files.readAllBytes(mount.resolve("data"))).isEqualTo(data);
    }
    assertThat(HostCommand.run("losetup", "--list", "--noheadings", "--output", "NAME,BACK-FILE"))
        .doesNotContain(dir.toString());
    assertThat(Files.readString(EmulatedDisk.BLKIO.resolve("blkio.throttle.write_bps_device")))
        .doesNotContain(majorMinor + " ");
    assertThat(Files.readString(Path.of("/proc/mounts"))).doesNotContain(mount.toString());
    assertThat(dir).isEmptyDirectory();
  }

  @Test
  void nvmeIsNotThrottled() throws IOException {
    try (EmulatedDisk disk = EmulatedDisk.create(DiskClass.NVME, "fast", 32L << 20, dir)) {
      assertThat(disk.limit("blkio.throttle.write_bps_device")).isZero();
      assertThat(disk.limit("blkio.throttle.read_iops_device")).isZero();
    }
  }

  @Test
  void fileCachesAreDroppedWhileAFileStaysOpen() throws IOException {
    try (EmulatedDisk disk = EmulatedDisk.create(DiskClass.NVME, "cache", 32L << 20, dir)) {
      Path file = disk.mount.resolve("open");
      byte[] data = new byte[4 << 20];
      Arrays.fill(data, (byte) 3);
      try (FileChannel channel =
          FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        channel.write(ByteBuffer.wrap(data));
        assertThat(cachedBytes(file)).isEqualTo(data.length);
        disk.dropFileCaches();
        assertThat(cachedBytes(file)).isZero();
        assertThat(channel.isOpen()).isTrue();
      }
      assertThat(Files.readAllBytes(file)).isEqualTo(data);
    }
  }

  @Test
  void childJvmRunsInsideTheContainerAtItsLimit() throws Exception {
    Path group;
    try (MemoryContainer container = MemoryContainer.create("test", 300L << 20)) {
      group = container.group;
      assertThat(container.appliedLimit()).isEqualTo(300L << 20);
      List<String> lines = runChild(container.wrap(javaCommand("cgroup")));
      assertThat(lines).contains("CGROUP /" + group.getFileName());
      assertThat(container.maxUsage()).isPositive();
    }
    assertThat(group).doesNotExist();
  }

  @Test
  void rackNodesReachEachOtherOverShapedLinksAndVanishOnClose() throws Exception {
    List<String> namespaces;
    try (RackNetwork rack = RackNetwork.create(3, 2, 1_000_000_000L)) {
      namespaces = rack.namespaces();
      assertThat(HostCommand.run("ip", "netns", "list")).contains(namespaces);
      assertThat(HostCommand.run("tc", "-n", rack.namespace(1), "class", "show", "dev", "eth0"))
          .contains("rate 1Gbit");
      // The other direction: the switch's port towards node 2.
      assertThat(HostCommand.run("tc", "-n", namespaces.get(0), "class", "show", "dev", "port2"))
          .contains("rate 1Gbit");
      assertThat(HostCommand.run("ip", "-n", rack.namespace(2), "addr", "show", "eth0"))
          .contains("inet 10.233.3.2/24");
      // A JVM in node 2 echoes one line; node 1 connects to it by address through the bridge.
      Process echo = new ProcessBuilder(rack.inNode(2, javaCommand("echo"))).start();
      try {
        BufferedReader out =
            new BufferedReader(
                new InputStreamReader(echo.getInputStream(), StandardCharsets.UTF_8));
        assertThat(out.readLine()).isEqualTo("LISTENING");
        String reply =
            HostCommand.run(
                rack.inNode(
                    1,
                    List.of(
                        "bash",
                        "-c",
                        "exec 3<>/dev/tcp/10.233.3.2/7000; echo hello-from-1 >&3; read l <&3;"
                            + " echo \"got $l\"")));
        assertThat(reply.trim()).isEqualTo("got hello-from-1 from /10.233.3.1");
      } finally {
        echo.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
      assertThat(reachable(rack, 1, rack.address(2))).isTrue();
      assertThat(reachable(rack, 2, rack.address(1))).isTrue();
      assertThat(reachable(rack, 1, "10.233.3.9")).isFalse();
    }
    String left = HostCommand.run("ip", "netns", "list");
    for (String namespace : namespaces) {
      assertThat(left).doesNotContain(namespace);
    }
  }

  @Test
  void sigtermTearsDownAndStaleResourcesCleanAfterSigkill() throws Exception {
    for (boolean kill : new boolean[] {false, true}) {
      Process child = new ProcessBuilder(javaCommand("leak")).start();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
      String ready = out.readLine();
      assertThat(ready).startsWith("READY ");
      List<String> made = Arrays.asList(ready.substring("READY ".length()).split(" "));
      if (kill) {
        child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        assertThat(Path.of(made.get(0))).exists();
        assertThat(StaleResources.clean()).hasSizeGreaterThanOrEqualTo(made.size());
      } else {
        child.destroy();
        child.waitFor(20, TimeUnit.SECONDS);
      }
      assertThat(Path.of(made.get(0))).doesNotExist();
      String namespaces = HostCommand.run("ip", "netns", "list");
      for (String namespace : made.subList(1, made.size())) {
        assertThat(namespaces).doesNotContain(namespace);
      }
    }
  }

  /**
   * Whether {@code address} answers node {@code from}: a TCP connect to a closed port is refused by
   * a host that is there and finds no route to one that is not (this host has no ping).
   */
  private static long cachedBytes(Path file) throws IOException {
    return Long.parseLong(
        HostCommand.run("fincore", "--bytes", "--noheadings", "--output", "RES", file.toString())
            .trim());
  }

  private static boolean reachable(RackNetwork rack, int from, String address) throws IOException {
    String probe = "exec 3<>/dev/tcp/" + address + "/9";
    HostCommand.Outcome outcome =
        HostCommand.attempt(rack.inNode(from, List.of("timeout", "10", "bash", "-c", probe)));
    assertThat(outcome.ok()).as("connect to a closed port of %s", address).isFalse();
    return outcome.output.contains("Connection refused");
  }

  private static List<String> javaCommand(String mode) {
    return ChildProcesses.java(List.of("-Xmx64m"), NodeEmulatorChild.class, List.of(mode));
  }

  private static List<String> runChild(List<String> command) throws Exception {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    List<String> lines = ChildProcesses.outputLines(process);
    assertThat(process.waitFor()).as("child exit, output %s", lines).isZero();
    return lines;
  }
}
