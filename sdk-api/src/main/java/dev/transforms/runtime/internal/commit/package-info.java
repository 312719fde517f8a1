/**
 * What every commit the SDK makes has in common: the check that the files a commit adds are there
 * ({@link dev.transforms.runtime.internal.commit.CommittedFiles}), and the one retry loop of its commits
 * ({@link dev.transforms.runtime.internal.commit.CommitRetry}).
 */
package dev.transforms.runtime.internal.commit;
