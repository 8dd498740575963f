// AOA locators (/scene/aoa?scene=&floor=): the anchors page restricted to AOA locators, each drawn
// with the direction it faces (its Heading), turned by dragging its arrow or typed in its dialog.
import { AnchorsPage } from './AnchorsPage';

export default function SceneAoaPage() {
  return <AnchorsPage aoa />;
}
