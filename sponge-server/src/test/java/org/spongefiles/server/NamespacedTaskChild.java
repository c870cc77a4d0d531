package org.spongefiles.server;

import java.io.OutputStream;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.spongefiles.core.SpongeFile;
import org.spongefiles.core.SpongeInputStream;
import org.spongefiles.core.SpongeTask;
import org.spongefiles.core.pool.ProcessLiveness;
import org.spongefiles.core.tier.TierKind;
import org.spongefiles.daemon.DaemonArguments;
import org.spongefiles.testkit.ChildJvm;
import org.spongefiles.testkit.RandomBytes;

/**
 * A task for {@link PidNamespaceReclaimTest}, meant to run in a pid namespace of its own: prints
 * {@code PID <its pid>}, opens SpongeFiles with the given -D configuration, writes a file of {@code
 * <chunks>} chunks of random bytes and prints {@code WRITTEN <pool chunks> <remote chunks> <disk
 * chunks> <lease id in hex>}; then answers each input line {@code VERIFY} with {@code VERIFIED
 * <true|false>} (whether every byte read back matches, by SHA-256) until its input ends.
 *
 * <p>Usage: {@code NamespacedTaskChild <task id> <chunks> -Dkey=value ...}
 */
public final class NamespacedTaskChild {
  private static final long SEED = 28;

  public static void main(String[] args) throws Exception {
    System.out.println("PID " + ProcessLiveness.currentPid());
    List<String> rest = Arrays.asList(args).subList(2, args.length);
    Configuration conf = DaemonArguments.parse(rest);
    try (SpongeTask task = SpongeTask.open(conf, args[0])) {
      SpongeFile file = task.create("held");
      long length = (long) Integer.parseInt(args[1]) * task.chunkSize();
      byte[] written;
      try (OutputStream out = file.output()) {
        written = RandomBytes.write(out, SEED, length);
      }
      System.out.println(
          "WRITTEN "
              + task.stats().chunksWritten(TierKind.POOL)
              + " "
              + task.stats().chunksWritten(TierKind.REMOTE)
              + " "
              + task.stats().chunksWritten(TierKind.DISK)
              + " "
              + Long.toHexString(task.identity().lease()));
      System.out.flush();
      ChildJvm.answerVerify(
          () -> {
            RandomBytes.Digest read;
            try (SpongeInputStream back = file.input()) {
              read = RandomBytes.read(back, SEED);
            }
            return read.bytes == length && Arrays.equals(read.sha256, written);
          });
    }
  }
}
