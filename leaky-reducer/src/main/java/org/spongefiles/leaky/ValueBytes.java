package org.spongefiles.leaky;

/** How the reducer helpers turn a reduce input value into the bytes they buffer. */
public enum ValueBytes {
  /**
   * Copy the serialized bytes Hadoop already holds: the helper reads the task's raw key/value
   * iterator (Hadoop's {@code @Private} {@code ReduceContextImpl} internals) and never deserializes
   * a buffered value on the way in. Falls back to {@link #RESERIALIZE}, with a warning, when the
   * reducer runs under a context that does not expose them.
   */
  RAW,
  /**
   * Let Hadoop deserialize each value into its reused object, then serialize it again into the
   * table: portable (public API only), one extra serialization per value.
   */
  RESERIALIZE
}
