/** The gallery: image columns as a virtualized grid of thumbnails over the table's view. */
export { Gallery, GalleryButton } from './Gallery'
export { useGallery, type GalleryState } from './useGallery'
export { imageColumns, imageTypeOf } from './detect'
