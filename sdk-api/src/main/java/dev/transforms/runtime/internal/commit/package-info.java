/**
 * What every commit the SDK makes has in common: the check that the files a commit adds are there
 * ({@link dev.transforms.runtime.internal.commit.CommittedFiles}).
 */
package dev.transforms.runtime.internal.commit;
