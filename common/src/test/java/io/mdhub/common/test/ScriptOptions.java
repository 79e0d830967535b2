package io.mdhub.common.test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * How {@link SystemProcesses#startScript(Path, String, List, ScriptOptions)} runs a script beyond its arguments: a
 * command it runs under (such as {@code ip netns exec NAME}), the working directory (null: the test's), and environment
 * variables added to those every script gets. Immutable; each method returns a changed copy.
 *
 * @param prefix      command words before {@code bash SCRIPT}.
 * @param directory   working directory, or null for the test's own.
 * @param environment variables to set.
 */
public record ScriptOptions(List<String> prefix, Path directory, Map<String, String> environment)
{
    /**
     * No prefix, the test's directory, no extra variables.
     */
    public static final ScriptOptions DEFAULTS = new ScriptOptions(List.of(), null, Map.of());

    /**
     * @param prefix      command words before {@code bash SCRIPT}.
     * @param directory   working directory, or null for the test's own.
     * @param environment variables to set.
     */
    public ScriptOptions
    {
        prefix = List.copyOf(prefix);
        environment = Map.copyOf(environment);
    }

    /**
     * @param command the command to run the script under, e.g. {@code ip netns exec NAME}.
     * @return a copy that runs the script under it.
     */
    public ScriptOptions under(final String... command)
    {
        final List<String> words = new ArrayList<>(prefix);
        words.addAll(List.of(command));
        return new ScriptOptions(words, directory, environment);
    }

    /**
     * @param workingDirectory where the script runs (relative outputs, such as a default report directory, land there).
     * @return a copy that runs the script there.
     */
    public ScriptOptions in(final Path workingDirectory)
    {
        return new ScriptOptions(prefix, workingDirectory, environment);
    }

    /**
     * @param name  an environment variable.
     * @param value its value.
     * @return a copy that sets it.
     */
    public ScriptOptions with(final String name, final String value)
    {
        final Map<String, String> variables = new HashMap<>(environment);
        variables.put(name, value);
        return new ScriptOptions(prefix, directory, variables);
    }
}
