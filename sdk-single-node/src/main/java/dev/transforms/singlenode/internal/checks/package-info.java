/**
 * Internal: how the single-node engine evaluates the data expectations of a staged output. Not API;
 * users declare checks with {@code dev.transforms.api.checks} and read results from the build.
 */
package dev.transforms.singlenode.internal.checks;
