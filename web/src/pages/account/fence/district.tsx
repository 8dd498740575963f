// The district picker and boundaries the fence screens use. Until the console's district data is
// in place these stand in for `components/DistrictPicker` and `map/districts` with their signatures.
import { Input } from 'antd';

export function DistrictPicker({ value, onChange }: { value?: string; onChange?: (code?: string) => void }) {
  return <Input value={value} maxLength={6} onChange={(e) => onChange?.(e.target.value || undefined)} />;
}

export async function loadDistrictShape(code: string): Promise<GeoJSON.MultiPolygon | null> {
  void code;
  return null;
}

export async function districtLabel(code: string, lang: string): Promise<string> {
  void lang;
  return code;
}
