package io.mdhub.common.status;

import java.util.Locale;

/**
 * The labels of {@link CounterReason} enums, made once per enum type so that a label costs an array read.
 */
final class CounterReasons
{
    private static final ClassValue<String[]> LABELS = new ClassValue<>()
    {
        @Override
        protected String[] computeValue(final Class<?> type)
        {
            final Object[] constants = type.getEnumConstants();
            final String[] labels = new String[constants.length];
            for (int i = 0; i < constants.length; i++)
            {
                labels[i] = ((Enum<?>)constants[i]).name().toLowerCase(Locale.ROOT).replace('_', '-');
            }
            return labels;
        }
    };

    private CounterReasons()
    {
    }

    static String label(final CounterReason reason)
    {
        return LABELS.get(reason.getDeclaringClass())[reason.ordinal()];
    }
}
