package org.spongefiles.leaky.mapreduce;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Objects;
import org.apache.hadoop.io.Writable;

/**
 * A map output value for {@link LeakyJoinReducer}: either a build-side value or a probe-side value,
 * with its side in the first byte. Subclass with concrete types:
 *
 * <pre>{@code
 * public static final class VisitOrRank extends JoinValue<UserVisit, Ranking> {
 *   public VisitOrRank() {
 *     super(new UserVisit(), new Ranking());
 *   }
 * }
 * }</pre>
 */
public abstract class JoinValue<B extends Writable, P extends Writable> implements Writable {
  private final B build;
  private final P probe;
  private byte side;

  protected JoinValue(B build, P probe) {
    this.build = Objects.requireNonNull(build, "build cannot be null");
    this.probe = Objects.requireNonNull(probe, "probe cannot be null");
  }

  /** Makes this a build-side value and returns the build object to fill. */
  public B asBuild() {
    side = JoinKey.BUILD;
    return build;
  }

  /** Makes this a probe-side value and returns the probe object to fill. */
  public P asProbe() {
    side = JoinKey.PROBE;
    return probe;
  }

  public byte side() {
    return side;
  }

  public B build() {
    return build;
  }

  public P probe() {
    return probe;
  }

  @Override
  public void write(DataOutput out) throws IOException {
    out.writeByte(side);
    if (side == JoinKey.BUILD) {
      build.write(out);
    } else {
      probe.write(out);
    }
  }

  @Override
  public void readFields(DataInput in) throws IOException {
    byte read = in.readByte();
    if (read == JoinKey.BUILD) {
      build.readFields(in);
    } else if (read == JoinKey.PROBE) {
      probe.readFields(in);
    } else {
      throw new IOException("corrupt join value: side byte " + read + " is neither 0 nor 1");
    }
    side = read;
  }

  @Override
  public String toString() {
    return side == JoinKey.BUILD ? "build:" + build : "probe:" + probe;
  }
}
