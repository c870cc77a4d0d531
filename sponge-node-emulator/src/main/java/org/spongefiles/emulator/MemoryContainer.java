package org.spongefiles.emulator;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A YARN-style container: a cgroup v1 memory group whose limit covers a task JVM's heap, its direct
 * memory and the page cache of what it writes and reads, as YARN's cgroup memory enforcement does.
 * So a stock task's spilled bytes stay in its page cache only as far as its limit allows and then
 * really go to the disk class below.
 *
 * <p>A command enters the group before it execs: {@link #wrap} turns {@code java ...} into {@code
 * sh -c 'echo $$ > <group>/cgroup.procs; exec java ...'}, so nothing of the JVM ever runs outside.
 *
 * <p>Finding: cgroup v1 charges a tmpfs page to the group of the process that first touches it, so
 * a task in a container is charged for every pool page it is the first to write, and the node's
 * shared pool would count against whichever task spilled first. Benchmarks therefore prefault the
 * pool from outside the containers ({@link PoolPrefault}), as a node's sponge server would own it.
 */
public final class MemoryContainer extends HostResource {
  static final Path MEMORY = Path.of("/sys/fs/cgroup/memory");

  public final Path group;
  public final long limitBytes;

  private MemoryContainer(Path group, long limitBytes) {
    this.group = group;
    this.limitBytes = limitBytes;
  }

  /** Makes the group {@code spongebench-<pid>-mem-<name>} limited to {@code limitBytes}. */
  public static MemoryContainer create(String name, long limitBytes) throws IOException {
    Path group = MEMORY.resolve(Teardown.prefix() + "mem-" + name);
    try {
      Files.createDirectory(group);
    } catch (IOException e) {
      throw new IOException("Creating memory cgroup " + group + " failed: " + e, e);
    }
    MemoryContainer container = new MemoryContainer(group, limitBytes);
    container.open(
        () ->
            EmulatedDisk.write(group.resolve("memory.limit_in_bytes"), Long.toString(limitBytes)));
    return container;
  }

  /** The limit the kernel holds for the group (rounded to pages). */
  public long appliedLimit() throws IOException {
    return Long.parseLong(Files.readString(group.resolve("memory.limit_in_bytes")).trim());
  }

  /** The most the group has used (heap, direct memory, page cache) since it was made. */
  public long maxUsage() throws IOException {
    return Long.parseLong(Files.readString(group.resolve("memory.max_usage_in_bytes")).trim());
  }

  /** The processes in the group now. */
  public List<Long> processes() throws IOException {
    List<Long> pids = new ArrayList<>();
    for (String line : Files.readAllLines(group.resolve("cgroup.procs"))) {
      if (!line.isBlank()) {
        pids.add(Long.parseLong(line.trim()));
      }
    }
    return pids;
  }

  /** {@code command} made to join this group before it execs. */
  public List<String> wrap(List<String> command) {
    StringBuilder script =
        new StringBuilder("echo $$ > ")
            .append(HostCommand.shellQuote(group.resolve("cgroup.procs").toString()))
            .append(" && exec");
    for (String word : command) {
      script.append(' ').append(HostCommand.shellQuote(word));
    }
    return List.of("sh", "-c", script.toString());
  }

  /** Kills what is still in the group, then removes it. */
  @Override
  protected void release() throws IOException {
    remove(group);
  }

  static void remove(Path group) throws IOException {
    if (!Files.isDirectory(group)) {
      return;
    }
    for (int attempt = 0; attempt < 50; attempt++) {
      List<String> pids = Files.readAllLines(group.resolve("cgroup.procs"));
      for (String pid : pids) {
        if (!pid.isBlank()) {
          ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(ProcessHandle::destroyForcibly);
        }
      }
      try {
        Files.delete(group);
        return;
      } catch (IOException busy) {
        try {
          TimeUnit.MILLISECONDS.sleep(100);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    throw new IOException("Memory cgroup " + group + " still has processes; not removed");
  }
}
