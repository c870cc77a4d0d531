package org.spongefiles.workloads.pig;

import java.io.IOException;
import org.apache.pig.EvalFunc;
import org.apache.pig.data.DataBag;
import org.apache.pig.data.DataType;
import org.apache.pig.data.Tuple;
import org.apache.pig.impl.logicalLayer.schema.Schema;

/**
 * The median of a bag of numbers that a nested ORDER has sorted, as a per-group median script
 * computes it: it walks the bag once in the order it returns, skipping nulls (Pig's ascending ORDER
 * puts them first), and returns the lower median of the numbers. A bag out of order is an error
 * naming the values, so a bag that loses the order it was given (spills read back in the wrong
 * order, a secondary sort not honoured) fails the script instead of giving a wrong median.
 */
public final class Median extends EvalFunc<Double> {

  @Override
  public Double exec(Tuple input) throws IOException {
    if (input == null || input.size() == 0 || input.get(0) == null) {
      return null;
    }
    DataBag values = (DataBag) input.get(0);
    long count = 0;
    Double previous = null;
    for (Tuple value : values) {
      Object number = value.get(0);
      if (number == null) {
        if (previous != null) {
          throw new IllegalStateException("Median: a null after " + previous + ": bag not sorted");
        }
        continue;
      }
      double current = ((Number) number).doubleValue();
      if (previous != null && current < previous) {
        throw new IllegalStateException(
            "Median: " + current + " after " + previous + ": bag not sorted");
      }
      previous = current;
      count++;
    }
    if (count == 0) {
      return null;
    }
    long middle = (count - 1) / 2;
    long index = 0;
    for (Tuple value : values) {
      Object number = value.get(0);
      if (number != null && index++ == middle) {
        return ((Number) number).doubleValue();
      }
    }
    throw new IllegalStateException(
        "Median: the bag held " + count + " numbers on the first pass, fewer on the second");
  }

  @Override
  public Schema outputSchema(Schema input) {
    return new Schema(new Schema.FieldSchema("median", DataType.DOUBLE));
  }
}
