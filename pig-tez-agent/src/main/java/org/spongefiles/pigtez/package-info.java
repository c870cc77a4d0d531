/**
 * Pig on Tez: a Java agent that makes Pig 0.18.0's {@code POShuffleTezLoad}, which builds every
 * GROUP, COGROUP and join bag of a Tez task with {@code new InternalCachedBag(numInputs)}, choose
 * its bags as {@code POPackage} does on MapReduce: from the {@code BagFactory} when {@code
 * pig.cachedbag.type=default} (so, with the recipe, from SpongeFiles' bag factory), else Pig's own.
 *
 * <p>Why an agent: Pig 0.18.0 offers no seam there. {@code TezDagBuilder} replaces each vertex's
 * {@code POPackage} by {@code new POShuffleTezLoad(pack)}, {@code TezOperator.getProcessorName()}
 * always names {@code PigProcessor}, and the bag is built inside {@code getNextTuple} from private
 * fields, so no property, factory, packager or processor subclass reaches it. The agent rewrites
 * one instruction sequence of one method ({@link org.spongefiles.pigtez.ShuffleLoadPatch}), and
 * only in the class file whose SHA-256 it knows ({@link org.spongefiles.pigtez.PigShuffleLoad});
 * any other build of that class is refused: its task fails at start naming the jar and the hash.
 *
 * <p>Imports Pig and Hadoop (provided by the task) and ASM (relocated into the jar); nothing of
 * SpongeFiles: the bags come from whatever factory Pig is configured with.
 */
package org.spongefiles.pigtez;
