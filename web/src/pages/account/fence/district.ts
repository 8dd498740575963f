// The district picker and boundaries, as the fence screens take them (one place to mock in tests).
export { DistrictPicker } from '../../../components/DistrictPicker';
export { districtLabel, loadDistrictOutline, loadDistrictShape } from '../../../map/districts';
