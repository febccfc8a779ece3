import { Field, NativeSelect } from "@chakra-ui/react";

/** A labelled native select of `options` (value → label, in order): the browser's own list, keyboard and all. */
export function SelectField<T extends string>({
  label,
  value,
  options,
  onChange,
  name,
  size,
  width,
}: {
  label: string;
  value: T;
  options: Record<T, string>;
  onChange: (value: T) => void;
  name?: string;
  size?: "sm";
  /** The select's width; without it the field takes the row. */
  width?: string;
}) {
  return (
    <Field.Root width={width ? "auto" : undefined}>
      <Field.Label>{label}</Field.Label>
      <NativeSelect.Root size={size} width={width}>
        <NativeSelect.Field name={name} value={value} onChange={(event) => onChange(event.target.value as T)}>
          {(Object.entries(options) as [T, string][]).map(([option, text]) => (
            <option key={option} value={option}>
              {text}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}
