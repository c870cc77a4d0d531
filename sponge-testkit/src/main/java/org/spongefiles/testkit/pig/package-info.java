/**
 * Test aids for Pig: {@link org.spongefiles.testkit.pig.FullHeap} tells Pig's memory manager the
 * heap is full, so it spills its registered bags at a moment a test chooses.
 *
 * <p>Imports the JDK and Pig only.
 */
package org.spongefiles.testkit.pig;
